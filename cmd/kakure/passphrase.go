package main

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"os"
)

// passphraseEnv names the environment variable a passphrase may come
// from instead of the terminal (scripts, tests): the passphrase of a
// protected identity key, or the new one for kakure id --protect.
const passphraseEnv = "KAKURE_PASSPHRASE"

// askPassphrase asks for the passphrase of the protected identity key at
// path: from KAKURE_PASSPHRASE if set, else on the terminal of env's
// standard input without echo. It is the node.Config.Passphrase of every
// node the program starts.
func (env *environment) askPassphrase(path string) ([]byte, error) {
	if p, ok := os.LookupEnv(passphraseEnv); ok {
		return []byte(p), nil
	}
	return env.readPassphrase(fmt.Sprintf("passphrase of the identity key %s: ", path))
}

// newPassphrase asks for a new passphrase: KAKURE_PASSPHRASE, or twice on
// the terminal.
func (env *environment) newPassphrase() ([]byte, error) {
	if p, ok := os.LookupEnv(passphraseEnv); ok {
		if p == "" {
			return nil, errors.New("KAKURE_PASSPHRASE is empty")
		}
		return []byte(p), nil
	}
	p, err := env.readPassphrase("new passphrase for the identity key: ")
	if err != nil {
		return nil, err
	}
	if len(p) == 0 {
		return nil, errors.New("an empty passphrase protects nothing")
	}
	again, err := env.readPassphrase("the same passphrase again: ")
	if err != nil {
		return nil, err
	}
	if !bytes.Equal(p, again) {
		return nil, errors.New("the two passphrases differ")
	}
	return p, nil
}

// readPassphrase prints prompt on env's stderr and reads a line from the
// terminal on env's stdin with its echo off.
func (env *environment) readPassphrase(prompt string) ([]byte, error) {
	terminal, ok := env.stdin.(*os.File)
	var restore func()
	err := errors.New("standard input is no file")
	if ok {
		restore, err = echoOff(terminal)
	}
	if err != nil {
		return nil, fmt.Errorf("the identity key is protected: run kakure in a terminal to type its passphrase, or set %s (%v)", passphraseEnv, err)
	}
	defer restore()
	fmt.Fprint(env.stderr, prompt)
	line, err := bufio.NewReader(terminal).ReadBytes('\n')
	fmt.Fprintln(env.stderr)
	if err != nil && len(line) == 0 {
		return nil, fmt.Errorf("reading the passphrase: %w", err)
	}
	return bytes.TrimRight(line, "\r\n"), nil
}
