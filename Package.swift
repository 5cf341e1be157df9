// swift-tools-version:6.0
import PackageDescription

/// How the trustx executable is linked on Linux, for start-up time (docs/DECISIONS.md D20, D90):
/// the Swift runtime and the C++ runtime under it linked in (`Sources/trustx/Linking/libstdc++.so`
/// is a linker script that points `-lstdc++` at the static archive), lld with packed relative relocations,
/// and only the symbols shared libraries need in the dynamic symbol table.
let trustxLinkerFlags = [
    "-static-stdlib",
    "-L", Context.packageDirectory + "/Sources/trustx/Linking",
    "-Xclang-linker", "-static-libgcc",
    "-use-ld=lld",
    "-Xlinker", "-z", "-Xlinker", "pack-relative-relocs",
    "-Xlinker", "--no-export-dynamic",
]

let package = Package(
    name: "trustx",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "trustx", targets: ["trustx"]),
        .executable(name: "trustx-limbo", targets: ["trustx-limbo"]),
        .executable(name: "trustx-bench", targets: ["trustx-bench"]),
        .library(name: "TrustSupport", targets: ["TrustSupport"]),
        .library(name: "TrustX509", targets: ["TrustX509"]),
        .library(name: "ATSModel", targets: ["ATSModel"]),
        .library(name: "TrustCore", targets: ["TrustCore"]),
        .library(name: "TrustReport", targets: ["TrustReport"]),
        .library(name: "TLSProbe", targets: ["TLSProbe"]),
        .library(name: "TrustLab", targets: ["TrustLab"]),
        .library(name: "TermUI", targets: ["TermUI"]),
        .library(name: "TrustExport", targets: ["TrustExport"]),
    ],
    targets: [
        .systemLibrary(
            name: "COpenSSL",
            pkgConfig: "openssl",
            providers: [.apt(["libssl-dev"]), .brew(["openssl@3"])]
        ),
        // No pkgConfig: ncursesw's pkg-config flags are only -D flags, which SwiftPM refuses with a
        // warning on every build; the shim header defines what they gave and the module map links
        // the libraries by name (docs/DECISIONS.md D119).
        .systemLibrary(
            name: "CNcursesw",
            providers: [.apt(["libncursesw5-dev"]), .brew(["ncurses"])]
        ),
        // Threads, time values and the small byte and text helpers every other module uses.
        .target(name: "TrustSupport"),
        .testTarget(name: "TrustSupportTests", dependencies: ["TrustSupport"]),
        // Certificates and the bytes under them: DER, X.509, CRLs, OCSP, file formats, digests and signatures.
        .target(name: "TrustX509", dependencies: ["TrustSupport", "COpenSSL"]),
        // Info.plist in, ATS settings out: the bounded property-list reader, NSAppTransportSecurity
        // decoding with its notes, the host policy and TLS versions.
        .target(name: "ATSModel", dependencies: ["TrustSupport"]),
        .target(name: "TrustCore", dependencies: ["TrustX509", "ATSModel", "TrustSupport"]),
        // The evaluation as text for a terminal (its colours given by the caller), JSON and Markdown.
        .target(name: "TrustReport", dependencies: ["TrustCore", "ATSModel", "TrustX509", "TrustSupport"]),
        // Keys, certificates, CRLs and OCSP responses made in process: for the lab and the tests only.
        .target(name: "TrustBuilder", dependencies: ["TrustX509", "TrustSupport", "COpenSSL"]),
        .executableTarget(
            name: "trustx",
            dependencies: [
                "TrustCore", "TrustReport", "ATSModel", "TrustX509", "TrustSupport", "TLSProbe", "TrustLab", "Explorer",
                "TrustExport",
            ],
            // The linker script is an input of the link, not a source or a resource.
            exclude: ["Linking"],
            // Start-up is most of a short run's cost (docs/benchmarks.md, docs/DECISIONS.md D20, D90).
            linkerSettings: [.unsafeFlags(trustxLinkerFlags, .when(platforms: [.linux]))]
        ),
        .executableTarget(name: "trustx-limbo", dependencies: ["TrustCore", "TrustX509", "TrustSupport"]),
        // The explorer's frame is timed too (render_us), so the bench links Explorer and TermUI.
        .executableTarget(
            name: "trustx-bench", dependencies: ["TrustCore", "TrustX509", "TrustSupport", "Explorer", "TermUI"]),
        .executableTarget(
            name: "trustx-fuzz",
            // TLSProbe for the parsers of what servers send (HTTP replies, STARTTLS, handshake messages).
            dependencies: ["TrustCore", "TLSProbe", "ATSModel", "TrustX509", "TrustSupport"],
            // Inputs the fuzzer starts from, not sources.
            exclude: ["seeds"]
        ),
        .testTarget(
            name: "TrustCoreTests",
            dependencies: ["TrustCore", "TrustReport", "ATSModel", "TrustX509", "TrustSupport", "TrustBuilder"]),
        // The settings as code and configuration (Swift, plist, curl, openssl) and the Info.plist lint.
        .target(
            name: "TrustExport", dependencies: ["TrustCore", "TrustReport", "ATSModel", "TrustX509", "TrustSupport"]),
        .testTarget(
            name: "TrustExportTests",
            dependencies: ["TrustExport", "TrustCore", "ATSModel", "TrustX509", "TrustSupport", "TrustBuilder"]),
        .target(name: "TLSProbe", dependencies: ["TrustCore", "ATSModel", "TrustX509", "TrustSupport", "COpenSSL"]),
        .testTarget(
            name: "TLSProbeTests",
            dependencies: [
                "TLSProbe", "TrustCore", "ATSModel", "TrustX509", "TrustSupport", "TrustBuilder", "COpenSSL",
            ]),
        // Runs the built trustx executable (and unit-tests TrustCore's reports).
        .testTarget(
            name: "trustxCLITests", dependencies: ["TrustCore", "TrustReport", "TrustX509", "TrustSupport", "TrustLab"]),
        .target(
            name: "TrustLab",
            dependencies: ["TrustCore", "ATSModel", "TrustX509", "TrustSupport", "TrustBuilder", "COpenSSL"]),
        .testTarget(
            name: "TrustLabTests",
            dependencies: [
                "TrustLab", "TrustCore", "ATSModel", "TrustX509", "TrustSupport", "TrustBuilder", "COpenSSL",
            ]),
        // Cells, buffers, layout, widgets and the curses backend (only CursesBackend.swift sees C).
        .target(name: "TermUI", dependencies: ["CNcursesw"]),
        .testTarget(name: "TermUITests", dependencies: ["TermUI"]),
        // The interactive explorer: state, actions, keymap, reduce, effects, views and themes.
        .target(
            name: "Explorer",
            dependencies: [
                "TrustCore", "TrustReport", "ATSModel", "TrustX509", "TrustSupport", "TLSProbe", "TrustLab", "TermUI",
                "TrustExport",
            ]),
        .testTarget(
            name: "ExplorerTests",
            dependencies: [
                "Explorer", "TrustCore", "TrustX509", "TrustSupport", "TrustBuilder", "TLSProbe", "TrustLab", "TermUI",
            ]),
    ]
)
