// The themes shipped in themes/, compiled in so `--theme NAME` works from any directory.
// The files stay the source and the examples; ThemeFilesTests fails when a text here and its
// file differ, so edit the file and copy it here whole.

extension Theme {
    /// The names of the built-in themes, in the order the help lists them.
    public static let builtInNames: [String] = builtInTexts.map(\.name)

    /// Each built-in theme's name and the text of its file in themes/.
    static let builtInTexts: [(name: String, text: String)] = [
        ("default", BuiltInThemeText.standard),
        ("light", BuiltInThemeText.light),
        ("high-contrast", BuiltInThemeText.highContrast),
        ("high-contrast-light", BuiltInThemeText.highContrastLight),
        ("colorblind", BuiltInThemeText.colorblind),
        ("mono", BuiltInThemeText.mono),
        ("solarized-dark", BuiltInThemeText.solarizedDark),
    ]
}

/// The texts of themes/*.theme, byte for byte.
enum BuiltInThemeText {
    static let standard = #"""
        # trustx theme: the default, in the basic eight colours every colour terminal shows.
        # Each line: role = foreground, background, attributes
        #   colours: black red green yellow blue magenta cyan white, bright-NAME, 0-255, or default / -
        #   attributes: bold dim underline reverse italic
        # Roles not listed keep the built-in default. Copy a shipped theme to start your own, then use it
        # with: trustx explore --theme path/to/mine.theme
        verdict.trusted   = green, -, bold
        verdict.untrusted = red, -, bold
        step.passed       = green
        step.failed       = red, -, bold
        step.skipped      = yellow
        step.na           = -, -, dim
        selection         = -, -, reverse
        changed           = magenta, -, bold
        border            = -, -, dim
        title             = -, -, bold
        label             = cyan
        key               = -, -, bold
        # screen: the colours under everything drawn (a background of its own); -, - keeps the terminal's.
        screen            = -, -

        """#
    static let light = #"""
        # trustx theme: dark colours for light backgrounds (256-colour terminals).
        # Each line: role = foreground, background, attributes (see default.theme for the syntax).
        verdict.trusted   = 22, -, bold
        verdict.untrusted = 124, -, bold
        step.passed       = 28
        step.failed       = 160, -, bold
        step.skipped      = 130
        step.na           = 244
        selection         = 16, 153
        changed           = 127, -, bold
        border            = 246
        title             = 18, -, bold
        label             = 24
        key               = 90, -, bold
        screen            = -, -

        """#
    static let highContrast = #"""
        # trustx theme: high contrast, for projectors in training rooms: bright colours on a black
        # background of its own, so it reads the same on a light terminal (high-contrast-light is dark
        # on white). Each line: role = foreground, background, attributes
        #   colours: black red green yellow blue magenta cyan white, bright-NAME, 0-255, or default / -
        #   attributes: bold dim underline reverse italic
        # Roles not listed keep the built-in default. Built in: trustx explore --theme high-contrast
        verdict.trusted   = bright-green, -, bold
        verdict.untrusted = bright-red, -, bold, underline
        step.passed       = bright-green
        step.failed       = bright-red, -, bold
        step.skipped      = bright-yellow
        step.na           = white
        selection         = black, bright-white, bold
        changed           = bright-magenta, -, bold, underline
        border            = white
        title             = bright-white, -, bold
        label             = bright-cyan
        key               = bright-white, -, bold
        screen            = bright-white, black

        """#
    static let highContrastLight = #"""
        # trustx theme: high contrast, dark on a white background of its own, for projectors and
        # light terminals (256-colour terminals); high-contrast is the same idea, bright on black.
        # Each line: role = foreground, background, attributes (see default.theme for the syntax).
        # Built in: trustx explore --theme high-contrast-light
        verdict.trusted   = 22, -, bold
        verdict.untrusted = 124, -, bold, underline
        step.passed       = 22
        step.failed       = 124, -, bold
        step.skipped      = 94
        step.na           = 238
        selection         = 231, 16, bold
        changed           = 90, -, bold, underline
        border            = 16
        title             = 16, -, bold
        label             = 18
        key               = 16, -, bold
        screen            = 16, 231

        """#
    static let colorblind = #"""
        # trustx theme: no red/green pair, for red-green colour vision deficiency (256-colour terminals).
        # Results are sky blue (passed, trusted) against orange (failed, not trusted), the pair that
        # differs in blue-yellow, and they differ by attribute too: failures are bold, an untrusted
        # verdict is also underlined. The symbols ✓ and ✗ and the words say it without any colour.
        # Each line: role = foreground, background, attributes (see default.theme for the syntax).
        verdict.trusted   = 39, -, bold
        verdict.untrusted = 208, -, bold, underline
        step.passed       = 39
        step.failed       = 208, -, bold
        step.skipped      = 250, -, italic
        step.na           = 244
        selection         = -, -, reverse
        changed           = 231, -, bold, underline
        border            = 244
        title             = -, -, bold
        label             = 248
        key               = 231, -, bold
        screen            = -, -

        """#
    static let mono = #"""
        # trustx theme: attributes only, no colour (for monochrome terminals; NO_COLOR picks it too).
        # The symbols (✓ ✗ • –) carry the meaning, attributes the emphasis.
        # Each line: role = foreground, background, attributes (see default.theme for the syntax).
        verdict.trusted   = -, -, bold
        verdict.untrusted = -, -, bold, underline
        step.passed       = -
        step.failed       = -, -, bold
        step.skipped      = -
        step.na           = -, -, dim
        selection         = -, -, reverse
        changed           = -, -, bold, underline
        border            = -
        title             = -, -, bold
        label             = -
        key               = -, -, bold
        screen            = -, -

        """#
    static let solarizedDark = #"""
        # trustx theme: Solarized dark accents (256-colour terminals).
        # Each line: role = foreground, background, attributes (see default.theme for the syntax).
        verdict.trusted   = 64, -, bold
        verdict.untrusted = 160, -, bold
        step.passed       = 64
        step.failed       = 160, -, bold
        step.skipped      = 136
        step.na           = 241
        selection         = 230, 24
        changed           = 125, -, bold
        border            = 240
        title             = 33, -, bold
        label             = 37
        key               = 166, -, bold
        screen            = -, -

        """#
}
