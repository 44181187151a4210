package variants

// The rules of hmg register themselves in their init.
import _ "github.com/kakure/kakure/protocol/hmgrules"
