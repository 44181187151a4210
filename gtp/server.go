// Package gtp is kakure's Go Text Protocol (GTP v2) front-end: it lets other
// Go programs, tournament tools and test harnesses drive the rules engine of
// every variant with full information (a referee's view of the game).
//
// [Server] reads commands and writes answers as the GTP v2 specification
// says; the commands a variant understands come from its [Handler]. The
// kakure extensions (kakure-try, kakure-reveal, kakure-turn …) answer on one
// line of space-separated key=value tokens; docs/gtp.md documents them.
package gtp

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"sort"
	"strconv"
	"strings"

	"github.com/kakure/kakure/bot"
	"github.com/kakure/kakure/engine"
	"github.com/kakure/kakure/internal/version"
)

// Name and Version are what the name and version commands answer.
var (
	Name    = "kakure"
	Version = version.Program
)

// ErrQuit is returned by a command to end the session after its answer.
var ErrQuit = errors.New("gtp: quit")

// Command is one GTP command of a variant: it receives the arguments and
// returns the answer text, or an error whose message becomes the failure
// answer ("? message").
type Command func(args []string) (string, error)

// Handler is a variant's side of the protocol: its state and its commands.
type Handler interface {
	// Commands returns the commands the variant understands besides the
	// ones every variant shares (protocol_version, name, version,
	// known_command, list_commands, quit, boardsize, clear_board, komi).
	Commands() map[string]Command
	// Reset starts a new game with the given options (clear_board,
	// boardsize and komi call it).
	Reset(o engine.Options) error
}

// NewHandler returns the handler of the variant named in o, or an error for
// options that do not describe a game.
func NewHandler(o engine.Options) (Handler, error) {
	o, err := o.Normalize()
	if err != nil {
		return nil, err
	}
	factory, ok := variantHandlers[o.Variant]
	if !ok {
		return nil, fmt.Errorf("gtp: variant %s has no GTP handler yet", o.Variant)
	}
	h := factory()
	if err := h.Reset(o); err != nil {
		return nil, err
	}
	return h, nil
}

// variantHandlers holds the constructors of the variants' handlers; each
// variant's file registers itself.
var variantHandlers = map[engine.Variant]func() Handler{}

// Server speaks GTP for one handler.
type Server struct {
	opts    engine.Options
	handler Handler
	shared  map[string]Command
	// level is the level SetLevel set (zero: genmoveLevel); clock what
	// the controller said of the clocks (GTP-D4).
	level bot.Level
	clock gtpClock
}

// NewServer returns a server for a game with the given options.
func NewServer(o engine.Options) (*Server, error) {
	h, err := NewHandler(o)
	if err != nil {
		return nil, err
	}
	o, _ = o.Normalize()
	s := &Server{opts: o, handler: h}
	s.shared = map[string]Command{
		"protocol_version":  func([]string) (string, error) { return "2", nil },
		"name":              func([]string) (string, error) { return Name, nil },
		"version":           func([]string) (string, error) { return Version, nil },
		"known_command":     s.knownCommand,
		"list_commands":     s.listCommands,
		"quit":              func([]string) (string, error) { return "", ErrQuit },
		"boardsize":         s.boardsize,
		"clear_board":       func([]string) (string, error) { return "", s.handler.Reset(s.opts) },
		"komi":              s.komi,
		"time_settings":     s.timeSettings,
		"kgs-time_settings": s.kgsTimeSettings,
		"time_left":         s.timeLeft,
	}
	return s, nil
}

func (s *Server) lookup(name string) (Command, bool) {
	if c, ok := s.shared[name]; ok {
		return c, true
	}
	c, ok := s.handler.Commands()[name]
	return c, ok
}

func (s *Server) knownCommand(args []string) (string, error) {
	if len(args) != 1 {
		return "", errors.New("syntax error")
	}
	_, ok := s.lookup(args[0])
	return strconv.FormatBool(ok), nil
}

// CommandNames returns every command the server understands, sorted.
func (s *Server) CommandNames() []string {
	var names []string
	for n := range s.shared {
		names = append(names, n)
	}
	for n := range s.handler.Commands() {
		if _, dup := s.shared[n]; !dup {
			names = append(names, n)
		}
	}
	sort.Strings(names)
	return names
}

func (s *Server) listCommands([]string) (string, error) {
	return strings.Join(s.CommandNames(), "\n"), nil
}

func (s *Server) boardsize(args []string) (string, error) {
	if len(args) != 1 {
		return "", errors.New("syntax error")
	}
	n, err := strconv.Atoi(args[0])
	if err != nil {
		return "", errors.New("syntax error")
	}
	o := s.opts
	o.Size = n
	if _, err := o.Normalize(); err != nil {
		return "", errors.New("unacceptable size")
	}
	if err := s.handler.Reset(o); err != nil {
		return "", errors.New("unacceptable size")
	}
	s.opts = o
	return "", nil
}

func (s *Server) komi(args []string) (string, error) {
	if len(args) != 1 {
		return "", errors.New("syntax error")
	}
	k, err := strconv.ParseFloat(args[0], 64)
	if err != nil {
		return "", errors.New("syntax error")
	}
	o := s.opts
	o.Komi, o.KomiSet = k, true
	if _, err := o.Normalize(); err != nil {
		return "", errors.New("syntax error")
	}
	// GTP's komi does not clear the board: handlers that keep komi read it
	// at scoring time through KomiSetter.
	if ks, ok := s.handler.(KomiSetter); ok {
		ks.SetKomi(k)
	}
	s.opts = o
	return "", nil
}

// KomiSetter is implemented by handlers whose komi can change mid-game.
type KomiSetter interface{ SetKomi(k float64) }

// LevelSetter is implemented by handlers whose genmove asks a bot
// (docs/bots.md); the level is kept across clear_board and boardsize.
type LevelSetter interface{ SetLevel(l bot.Level) }

// SetLevel sets the level of the bots that genmove asks. A server starts
// at genmoveLevel.
func (s *Server) SetLevel(l bot.Level) {
	s.level = l
	if ls, ok := s.handler.(LevelSetter); ok {
		ls.SetLevel(l)
	}
}

// genmoveLevel is the bots' level of a new server: level 1, fast enough
// for tests and scripts that play many moves (GTP-D1). kakure gtp sets its
// --level (default bot.DefaultLevel) with Server.SetLevel. It is never
// written.
var genmoveLevel = bot.Levels[1]

// botLevel returns l, or genmoveLevel for the zero Level.
func botLevel(l bot.Level) bot.Level {
	if l.Playouts == 0 {
		return genmoveLevel
	}
	return l
}

// Serve reads commands from r and writes answers to w until quit or the end
// of the input. It returns nil at quit or EOF.
func (s *Server) Serve(r io.Reader, w io.Writer) error {
	in := bufio.NewScanner(r)
	in.Buffer(make([]byte, 64*1024), 1<<20)
	out := bufio.NewWriter(w)
	defer out.Flush()
	for in.Scan() {
		line := clean(in.Text())
		if line == "" {
			continue
		}
		fields := strings.Fields(line)
		id := ""
		if _, err := strconv.ParseUint(fields[0], 10, 64); err == nil {
			id, fields = fields[0], fields[1:]
			if len(fields) == 0 {
				continue
			}
		}
		name := strings.ToLower(fields[0])
		answer, err := s.Execute(name, fields[1:])
		quit := errors.Is(err, ErrQuit)
		if err != nil && !quit {
			fmt.Fprintf(out, "?%s %s\n\n", id, oneParagraph(err.Error()))
		} else if answer == "" {
			fmt.Fprintf(out, "=%s\n\n", id)
		} else {
			fmt.Fprintf(out, "=%s %s\n\n", id, oneParagraph(answer))
		}
		if err := out.Flush(); err != nil {
			return fmt.Errorf("gtp: write: %w", err)
		}
		if quit {
			return nil
		}
	}
	if err := in.Err(); err != nil {
		return fmt.Errorf("gtp: read: %w", err)
	}
	return nil
}

// Execute runs one command and returns its answer.
func (s *Server) Execute(name string, args []string) (string, error) {
	cmd, ok := s.lookup(name)
	if !ok {
		return "", errors.New("unknown command")
	}
	if ls, isSetter := s.handler.(LevelSetter); isSetter && name == "genmove" && len(args) == 1 {
		if c, err := engine.ParseColor(args[0]); err == nil {
			if l, timed := s.timedLevel(c); timed {
				// The clock's limit for this move only (GTP-D4).
				ls.SetLevel(l)
				defer ls.SetLevel(s.level)
			}
		}
	}
	return cmd(args)
}

// clean applies the GTP preprocessing: control characters other than HT
// and LF removed, HT turned into a space, comments from # removed.
func clean(line string) string {
	if i := strings.IndexByte(line, '#'); i >= 0 {
		line = line[:i]
	}
	var b strings.Builder
	for _, r := range line {
		switch {
		case r == '\t':
			b.WriteByte(' ')
		case r < 32 || r == 127:
		default:
			b.WriteRune(r)
		}
	}
	return strings.TrimSpace(b.String())
}

// oneParagraph keeps an answer from ending the GTP response early: an empty
// line inside an answer would end it, so blank lines are dropped.
func oneParagraph(s string) string {
	s = strings.TrimRight(s, "\n")
	for strings.Contains(s, "\n\n") {
		s = strings.ReplaceAll(s, "\n\n", "\n")
	}
	return s
}
