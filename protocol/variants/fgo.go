package variants

// The rules of fgo register themselves in their init.
import _ "github.com/kakure/kakure/protocol/fgorules"
