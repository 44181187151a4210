package main

import (
	"github.com/kakure/kakure/bot"
	"github.com/kakure/kakure/gtp"
)

func init() {
	register(command{
		name:    "gtp",
		summary: "speak GTP v2 on stdin/stdout with full information (a referee's view)",
		run:     runGTP,
	})
}

func runGTP(env *environment, args []string) error {
	fs := newFlagSet(env, "gtp", "--variant V [variant options] [--level L]")
	var vf variantFlags
	vf.register(fs, "go")
	levelFlag := fs.String("level", bot.DefaultLevel.String(), "genmove's bot level: 1-5, beginner..strong, or playouts=N,time=DURATION (then resign=off, pass=late, wait=DURATION: docs/bots.md)")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	level, err := bot.ParseLevel(*levelFlag)
	if err != nil {
		return usageError("--level: %v", err)
	}
	if fs.NArg() > 0 {
		return usageError("unexpected argument %q", fs.Arg(0))
	}
	o, err := vf.options(fs)
	if err != nil {
		return err
	}
	srv, err := gtp.NewServer(o)
	if err != nil {
		return err
	}
	srv.SetLevel(level)
	return srv.Serve(env.stdin, env.stdout)
}
