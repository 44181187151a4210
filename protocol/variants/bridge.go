package variants

// The rules of bridge register themselves in their init.
import _ "github.com/kakure/kakure/protocol/bridgerules"
