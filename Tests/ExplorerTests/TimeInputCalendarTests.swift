import TrustCore
import TrustSupport
import XCTest

@testable import ExplorerState

/// `t`'s shifts in months and years follow the calendar: the same day of the month and time of
/// day, or the month's last day when it is shorter (as date(1) -d '+1 month' and Foundation's
/// Calendar do), never a count of days.
final class TimeInputCalendarTests: XCTestCase {
    func at(_ text: String) -> Timestamp { Timestamp(rfc3339: text)! }

    func testPlusFiveYearsKeepsTheDayAndTimeOfDay() {
        XCTAssertEqual(
            TimeInput.parse("+5y", now: at("2026-12-01T14:15:30Z")), at("2031-12-01T14:15:30Z"),
            "five calendar years, where 1825 days would give 2031-11-30 (two leap days in between)")
    }

    func testAYearFromALeapDayIsTheLastDayOfFebruary() {
        XCTAssertEqual(TimeInput.parse("+1y", now: at("2028-02-29T08:00:00Z")), at("2029-02-28T08:00:00Z"))
        XCTAssertEqual(TimeInput.parse("-4y", now: at("2028-02-29T08:00:00Z")), at("2024-02-29T08:00:00Z"))
    }

    func testMonthsCrossYearsAndClampToTheMonthsLastDay() {
        XCTAssertEqual(TimeInput.parse("+1m", now: at("2027-01-31T00:00:00Z")), at("2027-02-28T00:00:00Z"))
        XCTAssertEqual(TimeInput.parse("+13m", now: at("2027-12-15T23:59:59Z")), at("2029-01-15T23:59:59Z"))
        XCTAssertEqual(TimeInput.parse("-3m", now: at("2027-02-10T12:00:00Z")), at("2026-11-10T12:00:00Z"))
    }

    func testDaysWeeksAndHoursStayExactDurations() {
        XCTAssertEqual(TimeInput.parse("+2w", now: at("2027-01-01T00:00:00Z")), at("2027-01-15T00:00:00Z"))
        XCTAssertEqual(TimeInput.parse("-90d", now: at("2027-04-01T00:00:00Z")), at("2027-01-01T00:00:00Z"))
        XCTAssertEqual(TimeInput.parse("+12h", now: at("2027-01-01T00:00:00Z")), at("2027-01-01T12:00:00Z"))
    }

    func testAShiftBeyondTheYearsACertificateCanSayIsRefused() {
        XCTAssertNil(TimeInput.parse("+9000y", now: at("2027-01-01T00:00:00Z")))
    }
}
