package node

import (
	"context"
	"fmt"
	"io"
	"log"
	"log/slog"
	"os"
	"path/filepath"
	"sync"

	"github.com/libp2p/go-libp2p/gologshim"
)

// LogFileName is the default name of the log file in the home directory.
const LogFileName = "kakure.log"

// How go-libp2p v0.51 logs, and how kakure keeps it off the terminal:
//
//   - go-libp2p creates its loggers with gologshim.Logger, which builds the
//     real slog handler at each logger's first use: the handler given to
//     gologshim.SetDefaultHandler if one was set by then, otherwise a
//     handler writing to os.Stderr. The init function below sets kakure's
//     handler, which writes to libp2pLogs: io.Discard until
//     RedirectLibp2pLogs gives it a file.
//   - quic-go (the QUIC transport) and zeroconf (mDNS) write with the
//     standard library's log package, for instance quic-go's warning about
//     UDP buffer sizes. RedirectLibp2pLogs points log.SetOutput at the
//     same file.
//   - Levels follow GOLOG_LOG_LEVEL as go-libp2p documents it (for
//     example "error,swarm2=debug"); when it is unset kakure logs warnings
//     and errors. quic-go's own tracing follows QUIC_GO_LOG_LEVEL.
//   - One exception is out of reach: go-libp2p's canonicallog (a sampled
//     "peer status" and "misbehaving peer" log) binds os.Stderr when the
//     program starts and logs only at info and warn level, which
//     GOLOG_LOG_LEVEL disables by default; with GOLOG_LOG_LEVEL set to
//     warn or lower it can still write to the terminal.

// libp2pLogs is the process-wide destination of the logs of go-libp2p and
// of the standard log package once redirected.
var libp2pLogs = &logSink{w: io.Discard}

func init() {
	gologshim.SetDefaultHandler(newLibp2pLogHandler(libp2pLogs))
}

// RedirectLibp2pLogs sends the logs of go-libp2p, quic-go and the standard
// log package to the file at path (created with mode 0600, appended to),
// so that nothing is written to the terminal under a text UI. Logging is
// process-wide: the last call wins, and the file of the previous call is
// closed. New calls it with Config.LogFile.
func RedirectLibp2pLogs(path string) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return fmt.Errorf("node: creating log directory: %w", err)
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_APPEND, 0o600)
	if err != nil {
		return fmt.Errorf("node: opening log file: %w", err)
	}
	libp2pLogs.swap(f)
	log.SetOutput(libp2pLogs)
	return nil
}

// DiscardLibp2pLogs drops the logs RedirectLibp2pLogs was sending to a
// file, and closes the file.
func DiscardLibp2pLogs() {
	libp2pLogs.swap(nil)
}

// logSink is an io.Writer whose destination can change while loggers on
// other goroutines write to it.
type logSink struct {
	mu   sync.Mutex
	w    io.Writer
	file *os.File // the file w writes to, if it is one we opened
}

func (s *logSink) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.w.Write(p)
}

// swap makes f the destination (nil: discard) and closes the previous
// file. Writes hold the lock, so none is in flight to the old file.
func (s *logSink) swap(f *os.File) {
	s.mu.Lock()
	old := s.file
	s.file = f
	s.w = io.Discard
	if f != nil {
		s.w = f
	}
	s.mu.Unlock()
	if old != nil && old != f {
		old.Close()
	}
}

// libp2pLogHandler is the slog handler of every go-libp2p logger. It
// writes text records to the sink, at the level GOLOG_LOG_LEVEL sets for
// the logger's subsystem; gologshim names the subsystem in a "logger"
// attribute given to WithAttrs.
type libp2pLogHandler struct {
	inner slog.Handler
	level slog.Level
}

func newLibp2pLogHandler(w io.Writer) *libp2pLogHandler {
	inner := slog.NewTextHandler(w, &slog.HandlerOptions{Level: slog.LevelDebug, AddSource: true})
	return &libp2pLogHandler{inner: inner, level: libp2pLogLevel("")}
}

// connLogSystem names kakure's log of connection events (found on the
// LAN, dialled, connected via, lost, redialled): logged at info level
// even when GOLOG_LOG_LEVEL is unset, so that kakure.log tells what
// happened to a connection at the default level.
const connLogSystem = "kakure-conn"

// connLog logs connection events to the log file (see connLogSystem).
var connLog = gologshim.Logger(connLogSystem)

// libp2pLogLevel is the level for a subsystem: GOLOG_LOG_LEVEL's if set,
// otherwise info for connLogSystem and warn for the others.
func libp2pLogLevel(system string) slog.Level {
	if os.Getenv("GOLOG_LOG_LEVEL") == "" {
		if system == connLogSystem {
			return slog.LevelInfo
		}
		return slog.LevelWarn
	}
	return gologshim.ConfigFromEnv().LevelForSystem(system)
}

func (h *libp2pLogHandler) Enabled(_ context.Context, level slog.Level) bool {
	return level >= h.level
}

func (h *libp2pLogHandler) Handle(ctx context.Context, r slog.Record) error {
	return h.inner.Handle(ctx, r)
}

func (h *libp2pLogHandler) WithAttrs(attrs []slog.Attr) slog.Handler {
	level := h.level
	for _, a := range attrs {
		if a.Key == "logger" {
			level = libp2pLogLevel(a.Value.String())
		}
	}
	return &libp2pLogHandler{inner: h.inner.WithAttrs(attrs), level: level}
}

func (h *libp2pLogHandler) WithGroup(name string) slog.Handler {
	return &libp2pLogHandler{inner: h.inner.WithGroup(name), level: h.level}
}
