import Foundation
import Testing

@testable import LabServers
@testable import TrustLab

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// C as swift-nio-ssl does it: every type holding an OpenSSL object is a class that frees it in
/// deinit, and keeps the pointer to itself (private or fileprivate, with methods for what
/// callers need).
@Suite struct OpenSSLOwnershipTests {
    static let sources = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Sources")

    /// A type that holds an OpenSSL pointer, as the scan found it.
    struct Owner: CustomStringConvertible {
        var file: String
        var name: String
        var isClass: Bool
        var hasDeinit = false
        /// Declarations of pointer members visible outside the type's file or type.
        var exposed: [String] = []
        var description: String { "\(file): \(name)" }
    }

    /// Whether a declared type is an OpenSSL pointer: `OpaquePointer` (every OpenSSL object
    /// imports as one), or a typed pointer to an OpenSSL struct (`UnsafeMutablePointer<X509>`).
    static func isOpenSSLPointer(_ type: Substring) -> Bool {
        if type.contains("OpaquePointer") { return true }
        guard let open = type.firstIndex(of: "<"), type[..<open].hasSuffix("Pointer") else { return false }
        let pointee = type[type.index(after: open)...].prefix { $0 != ">" }
        return !pointee.isEmpty && pointee.allSatisfy { $0.isUppercase || $0.isNumber || $0 == "_" }
    }

    /// Words that may stand before a type's keyword in its declaration.
    static let modifiers: Set<Substring> = ["public", "package", "internal", "private", "fileprivate", "final", "open"]

    /// Every type declared in a file that imports COpenSSL with a stored property of an OpenSSL
    /// pointer type, with whether it has a deinit and which of its pointer members (stored, or
    /// computed in its declaration or an extension) are not private. A member is a line one
    /// level (4 spaces) below its type's declaration. A type with only a computed pointer owns
    /// nothing (`HashKind.evp` names one of OpenSSL's static digests, never freed).
    static func owners() throws -> [Owner] {
        let files = try #require(FileManager.default.subpaths(atPath: sources.path)).filter { $0.hasSuffix(".swift") }
        var found: [String: Owner] = [:]
        var holdsPointer: Set<String> = []
        for file in files.sorted() {
            let text = try String(contentsOf: sources.appendingPathComponent(file), encoding: .utf8)
            guard text.contains("import COpenSSL") else { continue }
            var open: [(name: String, indent: Int)] = []
            for line in text.split(separator: "\n") {
                let indent = line.prefix { $0 == " " }.count
                let body = line.dropFirst(indent)
                while let last = open.last, last.indent >= indent { open.removeLast() }
                let words = body.split(separator: " ")
                if let kind = words.firstIndex(where: {
                    ["class", "struct", "enum", "actor", "extension"].contains($0)
                }),
                    kind + 1 < words.count, words[..<kind].allSatisfy({ modifiers.contains($0) })
                {
                    let name = String(words[kind + 1].prefix { $0.isLetter || $0.isNumber || $0 == "_" })
                    if found[name] == nil || words[kind] != "extension" {
                        found[name] = Owner(
                            file: file, name: name, isClass: words[kind] == "class",
                            hasDeinit: found[name]?.hasDeinit ?? false, exposed: found[name]?.exposed ?? [])
                    }
                    open.append((name, indent))
                    continue
                }
                guard let type = open.last, indent == type.indent + 4 else { continue }
                if body.hasPrefix("deinit") { found[type.name]?.hasDeinit = true }
                guard let colon = body.firstIndex(of: ":"), !body.contains("func "),
                    body[..<colon].split(separator: " ").contains(where: { $0 == "let" || $0 == "var" }),
                    isOpenSSLPointer(body[body.index(after: colon)...])
                else { continue }
                if !body[colon...].contains("{") { holdsPointer.insert(type.name) }
                if !(body.hasPrefix("private ") || body.hasPrefix("fileprivate ")) {
                    found[type.name]?.exposed.append(String(body))
                }
            }
        }
        return found.values.filter { holdsPointer.contains($0.name) }.sorted { $0.name < $1.name }
    }

    @Test func testEveryOpenSSLOwnerFreesInDeinitAndKeepsItsPointer() throws {
        let owners = try Self.owners()
        // The scan sees the owners this test was written against; a new one joins them.
        let names = Set(owners.map(\.name))
        for known in [
            "ClientContext", "TLSSession", "KeyPair", "PooledECKey", "ServerTLSContext", "ParametersObject",
            "X509Object", "PrivateKeyObject", "Connection",
        ] {
            #expect(names.contains(known), "\(known) not found among \(owners)")
        }
        for owner in owners {
            #expect(owner.isClass, "\(owner) holds an OpenSSL pointer but is not a class")
            #expect(owner.hasDeinit, "\(owner) holds an OpenSSL pointer and has no deinit")
            #expect(owner.exposed == [], "\(owner) lets its pointer out")
        }
    }

    @Test func testTheScanTellsOpenSSLPointersFromOthers() {
        #expect(Self.isOpenSSLPointer("OpaquePointer?"))
        #expect(Self.isOpenSSLPointer(" [OpaquePointer]"))
        #expect(Self.isOpenSSLPointer(" UnsafeMutablePointer<ASN1_INTEGER>?"))
        #expect(!Self.isOpenSSLPointer(" UnsafeMutablePointer<UInt8>"))
        #expect(!Self.isOpenSSLPointer(" [UInt8]"))
    }

    @Test func testADroppedConnectionClosesItsSocket() throws {
        var pair: [Int32] = [0, 0]
        #expect(socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0, &pair) == 0)
        defer { close(pair[1]) }
        do {
            let connection = Connection(fd: pair[0], endpoint: 0, peer: [], closeBy: 0)
            connection.output = [1]
            // Dropped here without release().
        }
        // Our end closed: the other end reads end-of-file, not "would block".
        var byte: UInt8 = 0
        _ = fcntl(pair[1], F_SETFL, fcntl(pair[1], F_GETFL) | O_NONBLOCK)
        #expect(recv(pair[1], &byte, 1, 0) == 0)
    }

    @Test func testReleaseThenDropClosesOnce() throws {
        var pair: [Int32] = [0, 0]
        #expect(socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0, &pair) == 0)
        defer { close(pair[1]) }
        do {
            let connection = Connection(fd: pair[0], endpoint: 0, peer: [], closeBy: 0)
            connection.release()
            connection.release()
        }
        var byte: UInt8 = 0
        _ = fcntl(pair[1], F_SETFL, fcntl(pair[1], F_GETFL) | O_NONBLOCK)
        #expect(recv(pair[1], &byte, 1, 0) == 0)
    }
}
