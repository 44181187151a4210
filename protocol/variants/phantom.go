package variants

// The rules of phantom register themselves in their init.
import _ "github.com/kakure/kakure/protocol/phantomrules"
