package main

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"os"

	"github.com/kakure/kakure/node"
)

// passphraseEnv names the environment variable a passphrase may come
// from instead of the terminal (scripts, tests): the passphrase of a
// protected identity key, or the new one for kakure id --protect.
const passphraseEnv = "KAKURE_PASSPHRASE"

func init() { node.Passphrase = askPassphrase }

// passphraseTerminal is where a passphrase is typed (tests change it).
var passphraseTerminal = os.Stdin

// askPassphrase asks for the passphrase of the protected identity key at
// path: from KAKURE_PASSPHRASE if set, else on the terminal without echo.
func askPassphrase(path string) ([]byte, error) {
	if p, ok := os.LookupEnv(passphraseEnv); ok {
		return []byte(p), nil
	}
	return readPassphrase(fmt.Sprintf("passphrase of the identity key %s: ", path))
}

// newPassphrase asks for a new passphrase: KAKURE_PASSPHRASE, or twice on
// the terminal.
func newPassphrase() ([]byte, error) {
	if p, ok := os.LookupEnv(passphraseEnv); ok {
		if p == "" {
			return nil, errors.New("KAKURE_PASSPHRASE is empty")
		}
		return []byte(p), nil
	}
	p, err := readPassphrase("new passphrase for the identity key: ")
	if err != nil {
		return nil, err
	}
	if len(p) == 0 {
		return nil, errors.New("an empty passphrase protects nothing")
	}
	again, err := readPassphrase("the same passphrase again: ")
	if err != nil {
		return nil, err
	}
	if !bytes.Equal(p, again) {
		return nil, errors.New("the two passphrases differ")
	}
	return p, nil
}

// readPassphrase prints prompt on stderr and reads a line from the
// terminal on stdin with its echo off.
func readPassphrase(prompt string) ([]byte, error) {
	restore, err := echoOff(passphraseTerminal)
	if err != nil {
		return nil, fmt.Errorf("the identity key is protected: run kakure in a terminal to type its passphrase, or set %s (%v)", passphraseEnv, err)
	}
	defer restore()
	fmt.Fprint(os.Stderr, prompt)
	line, err := bufio.NewReader(passphraseTerminal).ReadBytes('\n')
	fmt.Fprintln(os.Stderr)
	if err != nil && len(line) == 0 {
		return nil, fmt.Errorf("reading the passphrase: %w", err)
	}
	return bytes.TrimRight(line, "\r\n"), nil
}
