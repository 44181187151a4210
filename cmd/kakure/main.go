// Command kakure plays hidden-information Go variants peer to peer.
//
// Usage:
//
//	kakure                         start a game against the built-in bot
//	kakure COMMAND [flags]         see `kakure help` for the commands
package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"regexp"
	"sort"
	"strings"

	"github.com/kakure/kakure/internal/version"
)

// command is one subcommand of the binary.
type command struct {
	name    string
	summary string
	run     func(env *environment, args []string) error
}

// environment is what a command may touch of the outside world, so that
// tests can run commands with their own streams.
type environment struct {
	stdin          io.Reader
	stdout, stderr io.Writer
}

// commands is filled by the init functions of the files that define them.
var commands = map[string]command{}

func register(c command) { commands[c.name] = c }

// errUsage marks an error caused by bad command-line input; main prints it
// with a hint and exits with status 2.
var errUsage = errors.New("usage")

func usageError(format string, args ...any) error {
	return fmt.Errorf("%w: %s", errUsage, fmt.Sprintf(format, args...))
}

func main() {
	env := &environment{stdin: os.Stdin, stdout: os.Stdout, stderr: os.Stderr}
	os.Exit(run(env, os.Args[1:]))
}

// run executes the command line and returns the process exit status.
func run(env *environment, args []string) int {
	// No command, or flags only, is `kakure play`.
	name := "play"
	if len(args) > 0 {
		switch a := args[0]; {
		case a == "-h" || a == "-help" || a == "--help":
			name, args = "help", args[1:]
		case !strings.HasPrefix(a, "-"):
			name, args = a, args[1:]
		}
	}
	cmd, ok := commands[name]
	if !ok {
		fmt.Fprintf(env.stderr, "kakure: unknown command %q\n\n", name)
		printHelp(env.stderr)
		return 2
	}
	if err := cmd.run(env, args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		fmt.Fprintf(env.stderr, "kakure %s: %s\n", name, userMessage(err))
		if errors.Is(err, errUsage) {
			fmt.Fprintf(env.stderr, "Run 'kakure %s -h' for help.\n", name)
			return 2
		}
		return 1
	}
	return 0
}

// packagePrefix matches the package names that errors carry inside
// kakure ("engine: ", "protocol: "), at the start of a message or of a
// wrapped part.
var packagePrefix = regexp.MustCompile(`(^|: )(engine|protocol|node|rendezvous|commit|gtp|bot|ui|sgf|referee|gc|ot|circuit|prg|usage): `)

// userMessage writes an error for the person at the terminal: without the
// package names that say where in kakure it came from, which mean nothing
// there ("usage: engine: bad options: …" reads "bad options: …").
func userMessage(err error) string {
	s := err.Error()
	for {
		t := packagePrefix.ReplaceAllString(s, "$1")
		if t == s {
			return s
		}
		s = t
	}
}

func printHelp(w io.Writer) {
	fmt.Fprintln(w, "kakure plays hidden-information Go variants peer to peer.")
	fmt.Fprintln(w, "\nUsage: kakure [COMMAND] [flags]   (no command: play against the built-in bot)")
	fmt.Fprintln(w, "\nCommands:")
	names := make([]string, 0, len(commands))
	for n := range commands {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		fmt.Fprintf(w, "  %-10s %s\n", n, commands[n].summary)
	}
	fmt.Fprintln(w, "\nRun 'kakure help COMMAND' (or 'kakure COMMAND -h') for a command's flags.")
}

// runHelp prints the general help, or with a command's name that
// command's flags: the command runs with -h, its help going to stdout.
func runHelp(env *environment, args []string) error {
	if len(args) == 0 {
		printHelp(env.stdout)
		return nil
	}
	if len(args) > 1 {
		return usageError("help takes one command, not %q", strings.Join(args, " "))
	}
	name := args[0]
	cmd, ok := commands[name]
	if !ok {
		return usageError("unknown command %q (run 'kakure help' for the list)", name)
	}
	switch name {
	case "help":
		printHelp(env.stdout)
		return nil
	case "version":
		fmt.Fprintf(env.stdout, "Usage: kakure version\n\n%s.\n", commands[name].summary)
		return nil
	}
	err := cmd.run(&environment{stdin: env.stdin, stdout: env.stdout, stderr: env.stdout}, []string{"-h"})
	if errors.Is(err, flag.ErrHelp) {
		return nil
	}
	if err == nil {
		return fmt.Errorf("help %s: the command ran instead of printing its flags", name)
	}
	return fmt.Errorf("help %s: %w", name, err)
}

// newFlagSet returns a flag set that writes its help to env.stderr and
// returns errors instead of exiting.
func newFlagSet(env *environment, name, usage string) *flag.FlagSet {
	fs := flag.NewFlagSet("kakure "+name, flag.ContinueOnError)
	fs.SetOutput(env.stderr)
	fs.Usage = func() {
		fmt.Fprintf(env.stderr, "Usage: kakure %s %s\n\nFlags:\n", name, usage)
		fs.PrintDefaults()
	}
	return fs
}

// parseFlags parses args and turns flag errors into usage errors.
func parseFlags(fs *flag.FlagSet, args []string) error {
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return err
		}
		return fmt.Errorf("%w: %v", errUsage, err)
	}
	return nil
}

func init() {
	register(command{name: "help", summary: "show this help, or with a COMMAND its flags", run: runHelp})
	register(command{name: "version", summary: "print the version", run: func(env *environment, _ []string) error {
		fmt.Fprintf(env.stdout, "kakure %s\n", version.Program)
		return nil
	}})
}
