package ui

import (
	"context"
	"time"

	"github.com/kakure/kakure/engine"
)

// codeState is the application's side of the invite-code dialogs; it is
// used from the application's goroutine only.
type codeState struct {
	// cancel stops the registration or the join under way.
	cancel context.CancelFunc
	// withdraw withdraws the code hosted.
	withdraw func()
	// gen counts the starts and stops, so that the answer of one that was
	// stopped is dropped.
	gen int
}

// stop stops what is under way and withdraws the code hosted, if any; it
// reports whether a code was withdrawn.
func (c *codeState) stop() bool {
	c.gen++
	if c.cancel != nil {
		c.cancel()
		c.cancel = nil
	}
	if c.withdraw != nil {
		go c.withdraw()
		c.withdraw = nil
		return true
	}
	return false
}

// joinTimeout bounds joining with a code: finding the host, connecting,
// and the host's answer to the invitation (which it has 40 s to give).
const joinTimeout = 2 * time.Minute

// hostCode registers a code on the relays and shows it; the guest's
// invitation then arrives as any other.
func (a *App) hostCode() {
	m := a.lobby.Model()
	codes, ok := a.cfg.Network.(InviteCodes)
	if !ok {
		m.Status = "this program cannot use invite codes"
		a.lobby.Render()
		return
	}
	if m.Code.Hosting {
		return
	}
	a.codes.stop()
	gen := a.codes.gen
	ctx, cancel := context.WithCancel(a.ctx)
	a.codes.cancel = cancel
	m.Code = CodeModel{Hosting: true, Progress: "Registering a code (on the relays, or the DHT)…"}
	a.lobby.Render()
	go func() {
		code, withdraw, err := codes.HostCode(ctx)
		a.update(func() {
			if gen != a.codes.gen {
				if withdraw != nil {
					go withdraw()
				}
				return
			}
			a.codes.cancel = nil
			cancel()
			if err != nil {
				m.Code.Progress, m.Code.Error = "", joinError("", err)
			} else {
				a.codes.withdraw = withdraw
				m.Code.Code = code
				m.Code.Progress = "Waiting for your friend: their invitation shows here, with their peer ID."
			}
			a.lobby.Render()
		})
	}()
}

// joinCode finds the host of code, connects to it, shows its peer ID and
// the connection, and invites it with options o; the game opens when the
// host accepts. An error shows in the dialog, the code still typed.
func (a *App) joinCode(code string, o engine.Options) {
	m := a.lobby.Model()
	codes, ok := a.cfg.Network.(InviteCodes)
	if !ok {
		m.Code.Error = "this program cannot use invite codes"
		a.lobby.Render()
		return
	}
	a.codes.stop()
	gen := a.codes.gen
	ctx, cancel := context.WithTimeout(a.ctx, joinTimeout)
	a.codes.cancel = cancel
	c := &m.Code
	c.Connecting, c.Peer, c.Error = true, "", ""
	c.Progress = "Looking for the host of " + code + " (on the relays, or the DHT)…"
	a.lobby.Render()
	// fail shows an error unless the join was stopped meanwhile.
	fail := func(err error) {
		a.update(func() {
			if gen != a.codes.gen {
				return
			}
			a.codes.cancel = nil
			c.Connecting, c.Progress, c.Error = false, "", joinError(code, err)
			a.lobby.Render()
		})
	}
	go func() {
		defer cancel()
		host, err := codes.JoinCode(ctx, code)
		if err != nil {
			fail(err)
			return
		}
		a.update(func() {
			if gen != a.codes.gen {
				return
			}
			c.Peer = host
			c.Progress = "Connected; invitation sent: the host answers on its screen…"
			a.lobby.Render()
		})
		a.watchConnection(ctx, host, func(cs ConnState) { a.lobby.SetConn(host, cs) })
		conn, err := a.cfg.Network.Invite(ctx, host, o)
		if err != nil {
			fail(err)
			return
		}
		a.update(func() {
			if gen != a.codes.gen {
				conn.Close()
				return
			}
			a.codes.cancel = nil
			*c = CodeModel{}
			a.openGame(conn)
		})
	}()
}

// cancelCode withdraws the code hosted, or stops joining, or closes the
// join dialog.
func (a *App) cancelCode() {
	m := a.lobby.Model()
	c := &m.Code
	switch {
	case c.Hosting:
		if a.codes.stop() {
			m.Status = "The code " + c.Code + " was withdrawn."
		}
		*c = CodeModel{}
	case c.Connecting:
		a.codes.stop()
		c.Connecting, c.Progress, c.Error = false, "", "Stopped."
	default:
		a.codes.stop()
		*c = CodeModel{}
	}
	a.lobby.Render()
}

// gameOpened withdraws the code hosted (a game started: its guest, or
// another peer, is playing), stops a join under way, and starts measuring the connection to the
// opponent for the game screen until the game is left.
func (a *App) gameOpened(screen *GameScreen, conn GameConn, done <-chan struct{}) {
	m := a.lobby.Model()
	switch {
	case m.Code.Hosting:
		if a.codes.stop() {
			m.Status = "The code " + m.Code.Code + " was withdrawn: the game started."
		}
		m.Code = CodeModel{}
		a.lobby.Render()
	case m.Code.Joining:
		// Another game started (an invitation accepted meanwhile): the
		// join stops, or it would open a second game.
		a.codes.stop()
		m.Code = CodeModel{}
		a.lobby.Render()
	}
	ctx, cancel := context.WithCancel(a.ctx)
	go func() {
		select {
		case <-done:
		case <-ctx.Done():
		}
		cancel()
	}()
	a.watchConnection(ctx, conn.Peer().String(), func(c ConnState) {
		if a.game == screen {
			screen.SetConnection(c)
		}
	})
	a.showWatchCommand(screen, conn, done)
}

// watchInviter measures the connection to the peer of an invitation while
// it waits for the player's answer, for the invitation's dialog.
func (a *App) watchInviter(in *Invitation) {
	ctx, cancel := context.WithDeadline(a.ctx, in.Deadline)
	a.watchConnection(ctx, in.From, func(c ConnState) {
		if !a.lobby.pending(in) {
			cancel()
			return
		}
		a.lobby.SetConn(in.From, c)
	})
}
