// Benchmarks of the trust engine against OpenSSL's X509_verify_cert on the same files, and of
// the explorer's frame. Prints one JSON line of medians in microseconds; see docs/benchmarks.md.
internal import COpenSSL
import CTModel
import Explorer
import ExplorerState
import TermUI
import TrustCore
import TrustSupport
import TrustTimeline
import TrustX509

#if canImport(Glibc)
    import Glibc
#endif

struct Options {
    var chain: [String] = []
    var anchors: [String] = []
    var host: String?
    var iterations = 2000
    var at: Timestamp?
    var micro = false
    var onlyCold = false
    var onlyReevaluate = false
    var onlyRender = false
    var onlyParse = false
    var ctLogs: String?
}

func usage(_ message: String) -> Never {
    let text = """
        Error: \(message)
        Usage: trustx-bench --chain FILE [FILE...] --anchor FILE [--host NAME] [--iterations N] [--at TIME] [--ct-logs FILE]

        """
    _ = text.utf8CString.withUnsafeBufferPointer { write(STDERR_FILENO, $0.baseAddress, $0.count - 1) }
    exit(64)
}

func parse() -> Options {
    var o = Options()
    var args = Array(CommandLine.arguments.dropFirst())[...]
    while let a = args.popFirst() {
        switch a {
        case "--chain":
            while let next = args.first, !next.hasPrefix("--") { o.chain.append(String(args.removeFirst())) }
        case "--anchor":
            guard let v = args.popFirst() else { usage("--anchor needs a file") }
            o.anchors.append(v)
        case "--host":
            guard let v = args.popFirst() else { usage("--host needs a name") }
            o.host = v
        case "--iterations":
            guard let v = args.popFirst(), let n = Int(v), n > 0 else { usage("--iterations needs a positive number") }
            o.iterations = n
        case "--only-cold":
            // Loops cold evaluation alone, for profilers.
            o.onlyCold = true
        case "--only-reevaluate":
            // Loops re-evaluation (a settings toggle, warm cache) alone, for profilers.
            o.onlyReevaluate = true
        case "--only-parse-and-evaluate":
            // Loops PEM in, verdict out, cold, for profilers.
            o.onlyParse = true
        case "--only-render":
            // Loops the explorer's frame alone, for profilers.
            o.onlyRender = true
        case "--micro":
            o.micro = true
        case "--at":
            guard let v = args.popFirst(), let t = Timestamp(rfc3339: v) else { usage("--at needs an RFC 3339 time") }
            o.at = t
        case "--ct-logs":
            // The CT logs SCTs are verified against (Apple's compiled-in list by default).
            guard let v = args.popFirst() else { usage("--ct-logs needs a file") }
            o.ctLogs = v
        default:
            usage("unknown argument '\(a)'")
        }
    }
    if o.chain.isEmpty { usage("--chain is required") }
    if o.anchors.isEmpty { usage("--anchor is required") }
    return o
}

func now() -> UInt64 {
    var ts = timespec()
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return UInt64(ts.tv_sec) * 1_000_000_000 + UInt64(ts.tv_nsec)
}

/// Runs `body` `n` times and returns the median in microseconds.
func median(_ n: Int, _ body: () -> Void) -> Double {
    for _ in 0..<min(50, n) { body() }
    var samples: [UInt64] = []
    samples.reserveCapacity(n)
    for _ in 0..<n {
        let t0 = now()
        body()
        samples.append(now() - t0)
    }
    samples.sort()
    return Double(samples[samples.count / 2]) / 1000
}

func readAll(_ paths: [String]) -> [UInt8] {
    var out: [UInt8] = []
    for p in paths {
        do { out += try CertificateLoader.readFile(p) } catch { usage("\(error)") }
    }
    return out
}

// MARK: - OpenSSL side

final class OpenSSLVerifier {
    let chainPEM: [UInt8]
    let anchorPEM: [UInt8]
    let host: String?
    let time: Int

    init(chainPEM: [UInt8], anchorPEM: [UInt8], host: String?, time: Int) {
        self.chainPEM = chainPEM
        self.anchorPEM = anchorPEM
        self.host = host
        self.time = time
    }

    static func readPEM(_ bytes: [UInt8]) -> [OpaquePointer] {
        bytes.withUnsafeBytes { raw -> [OpaquePointer] in
            guard let bio = BIO_new_mem_buf(raw.baseAddress, Int32(raw.count)) else { return [] }
            defer { BIO_free(bio) }
            var out: [OpaquePointer] = []
            while let x = PEM_read_bio_X509(bio, nil, nil, nil) { out.append(x) }
            ERR_clear_error()
            return out
        }
    }

    /// X509_verify_cert on already parsed certificates, with the settings a TLS client uses.
    func verify(leaf: OpaquePointer, intermediates: [OpaquePointer], anchors: [OpaquePointer]) -> Bool {
        let store = X509_STORE_new()!
        defer { X509_STORE_free(store) }
        for a in anchors { X509_STORE_add_cert(store, a) }
        let untrusted = OPENSSL_sk_new_null()!
        defer { OPENSSL_sk_free(untrusted) }
        for i in intermediates { OPENSSL_sk_push(untrusted, UnsafeRawPointer(i)!) }
        let ctx = X509_STORE_CTX_new()!
        defer { X509_STORE_CTX_free(ctx) }
        X509_STORE_CTX_init(ctx, store, leaf, untrusted)
        let param = X509_STORE_CTX_get0_param(ctx)
        X509_VERIFY_PARAM_set_purpose(param, X509_PURPOSE_SSL_SERVER)
        X509_VERIFY_PARAM_set_time(param, time_t(time))
        if let host {
            if parseIPAddress(host) != nil {
                X509_VERIFY_PARAM_set1_ip_asc(param, host)
            } else {
                X509_VERIFY_PARAM_set1_host(param, host, 0)
            }
        }
        let ok = X509_verify_cert(ctx) == 1
        ERR_clear_error()
        return ok
    }

    func parseAndVerify() -> Bool {
        let chain = OpenSSLVerifier.readPEM(chainPEM)
        let anchors = OpenSSLVerifier.readPEM(anchorPEM)
        defer {
            for x in chain { X509_free(x) }
            for x in anchors { X509_free(x) }
        }
        guard let leaf = chain.first else { return false }
        return verify(leaf: leaf, intermediates: Array(chain.dropFirst()), anchors: anchors)
    }
}

// MARK: - Main

let options = parse()
let chainPEM = readAll(options.chain)
let anchorPEM = readAll(options.anchors)
let chain: [Certificate]
let anchors: [Certificate]
do {
    chain = try CertificateLoader.decode(chainPEM)
    anchors = try CertificateLoader.decode(anchorPEM)
} catch {
    usage("\(error)")
}
let time: Timestamp = options.at ?? chain[0].notBefore.adding(seconds: 86_400)
var settings = TrustSettings(anchors: anchors, policy: .ssl(host: options.host), time: time)
if let path = options.ctLogs {
    do {
        settings.ctLogs = try CTLogListReader.read(readAll([path]), source: path)
    } catch {
        usage("\(path): \(error)")
    }
}
var toggled = settings
toggled.policy = .basicX509

let warm = Evaluator()
guard let first = warm.evaluate(chain: chain, settings: settings) else { usage("empty chain") }
let n = options.iterations

var sink = 0
if options.onlyCold {
    for _ in 0..<n { sink &+= Evaluator().evaluate(chain: chain, settings: settings)!.steps.count }
    print(sink)
    exit(0)
}
let coldBody = {
    let e = Evaluator()
    sink &+= e.evaluate(chain: chain, settings: settings)!.steps.count
}
var flip = false
if options.onlyReevaluate {
    for _ in 0..<n {
        flip.toggle()
        sink &+= warm.evaluate(chain: chain, settings: flip ? toggled : settings)!.steps.count
    }
    print(sink)
    exit(0)
}
if options.onlyRender {
    print(renderMedian(n).median)
    exit(0)
}
let reevaluateBody = {
    flip.toggle()
    sink &+= warm.evaluate(chain: chain, settings: flip ? toggled : settings)!.steps.count
}
let parseAndEvaluateBody = {
    let c = try! CertificateLoader.decode(chainPEM)
    let a = try! CertificateLoader.decode(anchorPEM)
    var s = settings
    s.anchors = a
    sink &+= Evaluator().evaluate(chain: c, settings: s)!.steps.count
}
if options.onlyParse {
    for _ in 0..<n { parseAndEvaluateBody() }
    print(sink)
    exit(0)
}

let ossl = OpenSSLVerifier(
    chainPEM: chainPEM, anchorPEM: anchorPEM, host: options.host,
    time: Int(time.secondsSinceEpoch))
let osslChain = OpenSSLVerifier.readPEM(chainPEM)
let osslAnchors = OpenSSLVerifier.readPEM(anchorPEM)
let osslVerdict = ossl.verify(leaf: osslChain[0], intermediates: Array(osslChain.dropFirst()), anchors: osslAnchors)
let osslVerifyBody = {
    sink &+= ossl.verify(leaf: osslChain[0], intermediates: Array(osslChain.dropFirst()), anchors: osslAnchors) ? 1 : 0
}
let osslParseVerifyBody = { sink &+= ossl.parseAndVerify() ? 1 : 0 }

// The five measurements run interleaved in rounds, so a machine whose speed drifts (shared
// cores) affects both sides of each ratio alike; each ratio is the median of per-round ratios.
let bodies: [() -> Void] = [coldBody, reevaluateBody, parseAndEvaluateBody, osslVerifyBody, osslParseVerifyBody]
let rounds = 21
let perRound = max(5, n / rounds)
var samples = [[UInt64]](repeating: [], count: bodies.count)
var roundMedians = [[Double]](repeating: [], count: bodies.count)
for body in bodies { for _ in 0..<min(50, n) { body() } }
for _ in 0..<rounds {
    for (k, body) in bodies.enumerated() {
        var these: [UInt64] = []
        for _ in 0..<perRound {
            let t0 = now()
            body()
            these.append(now() - t0)
        }
        samples[k] += these
        these.sort()
        roundMedians[k].append(Double(these[these.count / 2]) / 1000)
    }
}
let overall = samples.map { s -> Double in
    let sorted = s.sorted()
    return Double(sorted[sorted.count / 2]) / 1000
}
let ratios = [(0, 3), (1, 3), (2, 4)].map { a, b -> Double in
    let r = zip(roundMedians[a], roundMedians[b]).map { $0 / $1 }.sorted()
    return r[r.count / 2]
}
let cold = overall[0]
let reevaluate = overall[1]
let parseAndEvaluate = overall[2]
let osslVerify = overall[3]
let osslParseVerify = overall[4]

// MARK: - The explorer's frame

/// Applies effects and the actions they answer with until none are left (at most `limit`), as
/// the explorer's loop does between frames.
func settle(_ state: AppState, _ effects: [Effect], _ executor: EffectExecutor, limit: Int = 100) -> AppState {
    var state = state
    var pending = effects[...]
    var performed = 0
    while let effect = pending.popFirst(), performed < limit {
        performed += 1
        let (next, more) = reduce(state, executor.perform(effect))
        state = next
        pending += more
    }
    return state
}

/// One frame of the explorer on the benchmark's chain at 200x60: rendered into a new buffer,
/// diffed against the frame on the screen and drawn on an in-memory backend. Frames alternate
/// between two states a key apart (`j` in the steps pane: the selection and the detail pane
/// change), so each diff finds what a key press changes, as in use.
func renderMedian(_ n: Int) -> (median: Double, cellsPerFrame: Int) {
    let executor = EffectExecutor()
    defer { executor.shutdown() }
    let target = ExplorerTarget(
        name: chain[0].displayName, location: options.chain.joined(separator: ", "), host: "",
        source: .files(chain, paths: options.chain), anchors: anchors.map { AnchorEntry($0) })
    // As `trustx explore --chain ... --anchor ... [--host NAME]` starts.
    var toggles = Toggles()
    if let host = options.host { toggles.host = .typed(host) } else { toggles.policy = .sslWithoutHost }
    let (initial, effects) = AppState.explore([target], now: time, systemStore: nil, toggles: toggles)
    var a = settle(initial, effects, executor)
    for _ in AppState.Pane.allCases where a.focus != .steps {
        if let action = Keymap.standard.action(for: .tab, in: a) {
            let (next, more) = reduce(a, action)
            a = settle(next, more, executor)
        }
    }
    var b = a
    if let action = Keymap.standard.action(for: .char("j"), in: b) {
        let (next, more) = reduce(b, action)
        b = settle(next, more, executor)
    }
    guard a.evaluation?.path.certificates.count == 3 else { usage("render_us needs a chain that builds a path of 3") }
    let viewOptions = ViewOptions()
    let terminal = Terminal(backend: TestBackend(width: 200, height: 60))
    var flip = false
    var drawn = 0
    var frames = 0
    let m = median(n) {
        frames += 1
        flip.toggle()
        let state = flip ? a : b
        drawn &+= terminal.draw { ExplorerView.render(state, into: &$0, area: $0.area, options: viewOptions) }
    }
    return (m, drawn / max(1, frames))
}

let (render, renderCells) = renderMedian(n)

// `check --timeline` and the time prompt's strip: every candidate instant evaluated on both sides
// with the warm evaluator, as the explorer makes it (the command line's first evaluation is the
// report's own, cold).
let shape = Timeline.make(first, evaluator: warm)
let timeline = median(max(5, n / 20)) { sink &+= Timeline.make(first, evaluator: warm).evaluations }

func fmt(_ v: Double) -> String {
    let scaled = (v * 100).rounded() / 100
    return String(scaled)
}

print(
    "{\"cold_us\": \(fmt(cold)), \"reevaluate_us\": \(fmt(reevaluate)), "
        + "\"parse_and_evaluate_us\": \(fmt(parseAndEvaluate)), "
        + "\"openssl_verify_us\": \(fmt(osslVerify)), \"openssl_parse_and_verify_us\": \(fmt(osslParseVerify)), "
        + "\"cold_ratio\": \(fmt(ratios[0])), \"reevaluate_ratio\": \(fmt(ratios[1])), "
        + "\"parse_and_evaluate_ratio\": \(fmt(ratios[2])), \"render_us\": \(fmt(render)), "
        + "\"render_cells\": \(renderCells), \"timeline_us\": \(fmt(timeline)), "
        + "\"timeline_boundaries\": \(shape.boundaries.count), \"timeline_evaluations\": \(shape.evaluations), "
        + "\"trusted\": \(first.verdict.trusted), \"openssl_ok\": \(osslVerdict), \"iterations\": \(rounds * perRound), "
        + "\"sink\": \(sink % 2)}")

if options.micro {
    let leaf = chain[0]
    let issuer = chain[1]
    let m1 = median(n) { sink &+= SignatureVerifier.verify(leaf, signedBy: issuer.publicKey) == .valid ? 1 : 0 }
    let m2 = median(n) { sink &+= (try! Certificate(der: leaf.der)).version }
    let m3 = median(n) { sink &+= Digest.sha256(leaf.der).count }
    let m4 = median(n) {
        let g = EC_KEY_new_by_curve_name(NID_X9_62_prime256v1)
        EC_KEY_free(g)
    }
    print("verify_us \(m1) decode_us \(m2) sha256_us \(m3) eckey_new_us \(m4)")
}
