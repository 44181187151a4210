package main

import (
	"bufio"
	"fmt"
	"math/rand/v2"
	"os"
	"strconv"
	"strings"
	"time"
)

// testEngineEnv, set to 1 in a process's environment, makes the test
// binary a small GTP engine of its own (runTestEngine) instead of
// running the tests or standing in for kakure: the engine of the
// `kakure bot --engine` tests. It is set on the engine's command line
// (testEngine), not in the bot's environment, which the engine inherits.
const testEngineEnv = "KAKURE_TEST_GTP_ENGINE"

// testEngine returns the --engine value that runs the test engine with
// the options opts (runTestEngine).
func testEngine(opts ...string) string {
	return "gtp:env " + testEngineEnv + "=1 " + os.Args[0] + " -- " + strings.Join(opts, " ")
}

// testEngineStarted is the line the test engine writes on its standard
// error when it starts, which must reach the bot's log and not its
// output (GTP-D8).
const testEngineStarted = "test engine: started, reading GTP"

// runTestEngine is a GTP engine that plays random moves on the board it
// is given: it keeps the points of every play (its own genmove answers
// included) and answers genmove with a random other point. It knows no
// rules: kakure refuses what does not fit them (GTP-D2). Its options,
// NAME=VALUE after "--":
//
//	log=PATH         appends every command it receives to PATH
//	seed=N           the seed of its choices
//	think=DURATION   waits this long before each genmove's answer
//	pass-after=N     passes from the (N+1)th genmove on
//	exit-after=N     exits, without an answer, at the (N+1)th genmove
//	silent-after=N   answers nothing from the (N+1)th genmove on, reading
//	                 its input to its end
func runTestEngine(args []string) int {
	for i, a := range args {
		if a == "--" {
			args = args[i+1:]
			break
		}
	}
	opts := map[string]string{}
	for _, a := range args {
		k, v, _ := strings.Cut(a, "=")
		opts[k] = v
	}
	number := func(name string) int {
		n, err := strconv.Atoi(opts[name])
		if err != nil {
			return -1
		}
		return n
	}
	seed, _ := strconv.ParseUint(opts["seed"], 10, 64)
	think, _ := time.ParseDuration(opts["think"])
	passAfter, exitAfter, silentAfter := number("pass-after"), number("exit-after"), number("silent-after")
	var log *os.File
	if path := opts["log"]; path != "" {
		f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_APPEND, 0o600)
		if err != nil {
			fmt.Fprintln(os.Stderr, "test engine:", err)
			return 1
		}
		log = f
	}
	fmt.Fprintln(os.Stderr, testEngineStarted)
	rng := rand.New(rand.NewPCG(seed, uint64(os.Getpid())))
	size := 19
	taken := map[string]bool{}
	genmoves := 0
	silent := false
	in := bufio.NewScanner(os.Stdin)
	for in.Scan() {
		line := strings.TrimSpace(in.Text())
		if line == "" {
			continue
		}
		if log != nil {
			fmt.Fprintln(log, line)
		}
		if silent {
			continue
		}
		f := strings.Fields(line)
		id := ""
		if _, err := strconv.Atoi(f[0]); err == nil {
			id, f = f[0], f[1:]
		}
		answer := func(text string) { fmt.Printf("=%s %s\n\n", id, text) }
		switch f[0] {
		case "protocol_version":
			answer("2")
		case "name":
			answer("kakure-test-engine")
		case "version":
			answer("1")
		case "boardsize":
			if len(f) > 1 {
				size, _ = strconv.Atoi(f[1])
			}
			clear(taken)
			answer("")
		case "clear_board":
			clear(taken)
			answer("")
		case "play":
			if len(f) > 2 && !strings.EqualFold(f[2], "pass") {
				taken[strings.ToUpper(f[2])] = true
			}
			answer("")
		case "genmove":
			genmoves++
			switch {
			case exitAfter >= 0 && genmoves > exitAfter:
				fmt.Fprintln(os.Stderr, "test engine: exiting at genmove", genmoves, "as told")
				return 3
			case silentAfter >= 0 && genmoves > silentAfter:
				fmt.Fprintln(os.Stderr, "test engine: silent from genmove", genmoves, "on, as told")
				silent = true
				continue
			}
			time.Sleep(think)
			var free []string
			for y := 1; y <= size; y++ {
				for x := 0; x < size; x++ {
					v := string("ABCDEFGHJKLMNOPQRST"[x]) + strconv.Itoa(y)
					if !taken[v] {
						free = append(free, v)
					}
				}
			}
			if len(free) == 0 || passAfter >= 0 && genmoves > passAfter {
				answer("pass")
				continue
			}
			v := free[rng.IntN(len(free))]
			taken[v] = true
			answer(v)
		case "quit":
			answer("")
			return 0
		case "komi", "time_settings", "kgs-time_settings", "time_left":
			answer("")
		default:
			fmt.Printf("?%s unknown command\n\n", id)
		}
	}
	return 0
}
