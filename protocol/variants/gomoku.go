package variants

// The rules of gomoku register themselves in their init.
import _ "github.com/kakure/kakure/protocol/gomokurules"
