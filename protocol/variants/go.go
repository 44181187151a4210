package variants

// The rules of go register themselves in their init.
import _ "github.com/kakure/kakure/protocol/gorules"
