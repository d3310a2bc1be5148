// Package daemon is adtest's warm daemon: it holds interactive sessions and
// the drivers behind them, and owns their lifetime (ADR 0002: the daemon owns
// helper lifetime policy; a provider — the browser, or the adb connection and
// the on-device helper — stays warm across commands and sessions).
//
// # Shape
//
//   - protocol.go: one JSON request and one JSON response per connection,
//     newline framed, with a request id and a protocol version; requests over
//     MaxRequestBytes are refused and the daemon keeps serving.
//   - paths.go: where the daemon lives. The unix socket is in
//     $XDG_RUNTIME_DIR/adtest/ (else a per-user state directory), the
//     directory 0700 and owned by the user, the socket 0600. Both sides check.
//   - server.go: Serve. The TCP listener (--listen) requires a generated
//     token, stored 0600 and compared in constant time. The daemon exits
//     after IdleTimeout without sessions. A client that goes away mid-command
//     cancels that command, so it never wedges its session.
//   - sessions.go: the session registry. Commands on one session are
//     serialised by the session's lock; different sessions run in parallel.
//     The names of live sessions are kept in sessions.json so that a daemon
//     restarted after a crash reports them as lost (reason session_lost)
//     instead of acting on a fresh page. open.go opens a session (its
//     driver, app and recording; scripttarget.go refuses a recording path
//     that can never be written); step.go turns a request into an action
//     and runs it through the session's step pipeline (--record-as, the
//     recorder's capture); replay.go runs a whole script in a warm
//     session (agent-device's replay drop-in); trace.go keeps an
//     interactive session's trace; adb.go keeps the daemon's one adb
//     server; remote.go is the TCP listener's address policy.
//   - Config.Reaper (the browser's is web.Reaper, in drivers/web): the
//     helper processes of the live sessions are recorded in sessions.json
//     too; a daemon started after a crash has the reaper kill what is left
//     of them and remove their profiles before it serves.
//   - client.go: Client.Do dials the daemon, starting it when it is not
//     running, and refuses a daemon of another version (a stop of the same
//     protocol is honoured across builds; Terminate stops any other).
//
// Nothing here is web-only: a session's driver comes from the Provider the
// caller wires for its platform (cmd/adtest wires web and Android).
package daemon
