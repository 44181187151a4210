// Package version holds the program's version: the one string that
// `kakure version`, GTP's version command and the AP property of the
// SGF files kakure writes all report.
package version

// Program is kakure's version. The game protocol has its own version
// (protocol.Version, carried in invitations), which changes only when
// the messages do.
const Program = "1.0.0"
