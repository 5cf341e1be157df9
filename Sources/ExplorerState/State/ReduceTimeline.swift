import TrustSupport
import TrustTimeline

// The time prompt's timeline strip: where the verdict changes under the current settings, made
// in the background when `t` opens the prompt, and Tab putting each change's instant in the
// prompt in turn (D465).
extension AppState {
    /// `t`: the time prompt, and the timeline of the evaluation at hand for its strip. Predict
    /// mode asks for none: the strip would tell the room the verdict at each date.
    mutating func openTimePrompt(_ effects: inout [Effect]) {
        open(.time, &effects, text: evaluationTime.rfc3339)
        timeline = nil
        timelineSelection = nil
        pendingTimeline = nil
        guard !predict, let e = evaluation else { return }
        let id = nextRequest
        nextRequest += 1
        pendingTimeline = id
        effects.append(.timeline(request: id, e))
    }

    /// Whether the time prompt shows the strip: open, and a timeline made or being made.
    package var showsTimelineStrip: Bool {
        prompt?.kind == .time && (timeline != nil || pendingTimeline != nil)
    }

    /// Tab in the time prompt: the next change's instant, first the first change after the
    /// evaluation time, then each in turn, the oldest after the last.
    mutating func completeTimeFromTimeline(_ p: inout Prompt, _ effects: inout [Effect]) {
        guard let entries = timeline?.entries, !entries.isEmpty else {
            message = pendingTimeline != nil ? "the timeline is being made" : "the verdict never changes here"
            return
        }
        let next: Int
        if let i = timelineSelection {
            next = (i + 1) % entries.count
        } else {
            let time = evaluationTime
            next = entries.firstIndex { $0.at > time } ?? 0
        }
        timelineSelection = next
        p.text = entries[next].at.rfc3339
        p.completions = []
        p.preview = nil
        prompt = p
        requestPreview(&effects)
    }
}
