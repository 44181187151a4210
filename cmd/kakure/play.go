package main

import (
	"bufio"
	"fmt"
	"strings"

	"github.com/kakure/kakure/engine"
	"github.com/kakure/kakure/gtp"
)

func init() {
	register(command{
		name:    "play",
		summary: "play a game against the built-in bot (the default command)",
		run:     runPlay,
	})
}

// runPlay is the line-mode game against the engine's move generator. It is
// what `kakure` starts with no arguments until the terminal UI lands.
func runPlay(env *environment, args []string) error {
	fs := newFlagSet(env, "play", "[--size N] [--komi K] [--color black|white]")
	var vf variantFlags
	vf.register(fs, "go")
	colorName := fs.String("color", "black", "your colour: black or white")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	o, err := vf.options(fs)
	if err != nil {
		return err
	}
	if o.Variant != engine.VariantGo {
		return usageError("the line-mode game plays plain Go only for now (use 'kakure gtp --variant %s' for the others)", o.Variant)
	}
	human, err := engine.ParseColor(*colorName)
	if err != nil {
		return usageError("%v", err)
	}
	srv, err := gtp.NewServer(o)
	if err != nil {
		return err
	}
	ask := func(cmd string, args ...string) (string, error) { return srv.Execute(cmd, args) }
	in := bufio.NewScanner(env.stdin)
	fmt.Fprintf(env.stdout, "kakure: plain Go %dx%d, komi %v. You play %s.\n", o.Size, o.Size, o.Komi, human)
	fmt.Fprintln(env.stdout, "Type a point such as d4, 'pass', 'resign' or 'quit'.")
	toMove, passes := engine.Black, 0
	for passes < 2 {
		board, _ := ask("showboard")
		fmt.Fprintln(env.stdout, strings.TrimPrefix(board, "\n"))
		if toMove != human {
			mv, err := ask("genmove", toMove.String())
			if err != nil {
				return fmt.Errorf("engine move: %w", err)
			}
			fmt.Fprintf(env.stdout, "%s plays %s\n", toMove, mv)
			if mv == "pass" {
				passes++
			} else {
				passes = 0
			}
			toMove = toMove.Opponent()
			continue
		}
		fmt.Fprintf(env.stdout, "%s to play> ", toMove)
		if !in.Scan() {
			fmt.Fprintln(env.stdout, "\nGame abandoned.")
			return nil
		}
		line := strings.ToLower(strings.TrimSpace(in.Text()))
		switch line {
		case "":
			continue
		case "quit", "exit":
			fmt.Fprintln(env.stdout, "Game abandoned.")
			return nil
		case "resign":
			fmt.Fprintf(env.stdout, "Result: %s\n", engine.Result{Winner: human.Opponent(), By: engine.ByResignation})
			return nil
		}
		if _, err := ask("play", toMove.String(), line); err != nil {
			fmt.Fprintf(env.stdout, "%s: %v\n", line, err)
			continue
		}
		if line == "pass" {
			passes++
		} else {
			passes = 0
		}
		toMove = toMove.Opponent()
	}
	score, _ := ask("final_score")
	fmt.Fprintf(env.stdout, "Both passed. Result by area, all stones counted alive: %s\n", score)
	return nil
}
