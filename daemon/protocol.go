package daemon

import (
	"bufio"
	"bytes"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"

	"github.com/adtest/adtest/runner"

	"github.com/adtest/adtest/drivers"
)

// ProtocolVersion is the version of the request/response protocol. A client
// and a daemon of different protocol versions (or different builds) refuse
// each other.
const ProtocolVersion = 1

// MaxRequestBytes bounds one request line; a longer one is refused.
const MaxRequestBytes = 1 << 20

// MaxResponseBytes bounds one response line the client accepts.
const MaxResponseBytes = 64 << 20

// Operations of a request.
const (
	OpCommand    = "command"     // an interactive session command (open, click, ...)
	OpStatus     = "status"      // daemon status
	OpStop       = "stop"        // close every session and exit
	OpSessions   = "sessions"    // list sessions
	OpSaveScript = "save-script" // publish a session's recording without closing it
	OpReplay     = "replay"      // run a script in a session (adtest replay)
)

// Request is one client request.
type Request struct {
	V       int    `json:"v"`
	ID      string `json:"id"`
	Version string `json:"version"` // the adtest build of the client
	Token   string `json:"token,omitempty"`
	Op      string `json:"op"`

	Session string   `json:"session,omitempty"`
	Command string   `json:"command,omitempty"`
	Argv    []string `json:"argv,omitempty"`

	// Open options (command open).
	Platform   string `json:"platform,omitempty"`
	Device     string `json:"device,omitempty"`
	SaveScript bool   `json:"saveScript,omitempty"`
	// ScriptPath is the recording's path (open/close --save-script=PATH,
	// session save-script PATH); absolute, resolved by the client.
	ScriptPath string `json:"scriptPath,omitempty"`
	Force      bool   `json:"force,omitempty"`
	// ADBServer is the adb server HOST:PORT the client's environment names
	// (ADB_SERVER_SOCKET, ANDROID_ADB_SERVER_PORT; "" when it names none).
	// An Android open is refused when the daemon's Android sessions use
	// another server (adb.go).
	ADBServer string `json:"adbServer,omitempty"`
	// TraceDir is open --trace: a new session's steps are traced into it
	// (absolute), written at close.
	TraceDir string `json:"traceDir,omitempty"`
	// RecordAs is fill --record-as NAME: the recording gets ${NAME}.
	RecordAs string `json:"recordAs,omitempty"`
	// JSON asks for structured data (snapshot nodes) in the response.
	JSON bool `json:"json,omitempty"`
	// TimeoutMs bounds the command in the daemon (0: the default).
	TimeoutMs int `json:"timeoutMs,omitempty"`
	// Cwd is the client's working directory. A new session resolves
	// relative paths of its commands (screenshot PATH) against the Cwd of
	// its open, so that a recorded script keeps them as typed.
	Cwd string `json:"cwd,omitempty"`

	// Replay (op replay): the script's source and the resume point.
	Replay *ReplayRequest `json:"replay,omitempty"`
}

// Response answers one request.
type Response struct {
	V       int               `json:"v"`
	ID      string            `json:"id"`
	Version string            `json:"version"` // the adtest build of the daemon
	OK      bool              `json:"ok"`
	Text    string            `json:"text,omitempty"`
	Data    map[string]any    `json:"data,omitempty"`
	Warning string            `json:"warning,omitempty"`
	Error   *runner.ErrorInfo `json:"error,omitempty"`
}

// newID returns a random request id.
func newID() string {
	var b [8]byte
	_, _ = rand.Read(b[:])
	return hex.EncodeToString(b[:])
}

// errTooLarge is returned by readLine for a line over its limit.
var errTooLarge = errors.New("line too long")

// readLine reads one '\n'-terminated line of at most max bytes (the newline
// excluded). A final line without newline at EOF is returned as is.
func readLine(r *bufio.Reader, max int) ([]byte, error) {
	var buf []byte
	for {
		chunk, err := r.ReadSlice('\n')
		if len(buf)+len(chunk) > max+1 {
			return nil, errTooLarge
		}
		buf = append(buf, chunk...)
		switch {
		case err == nil:
			return bytes.TrimSuffix(buf, []byte("\n")), nil
		case errors.Is(err, bufio.ErrBufferFull):
			continue
		case errors.Is(err, io.EOF) && len(buf) > 0:
			return buf, nil
		default:
			return nil, err
		}
	}
}

// writeMessage writes v as one JSON line.
func writeMessage(w io.Writer, v any) error {
	b, err := json.Marshal(v)
	if err != nil {
		return err
	}
	b = append(b, '\n')
	_, err = w.Write(b)
	return err
}

// failure builds an error response.
func failure(req *Request, code string, reason drivers.Reason, hint, format string, args ...any) *Response {
	resp := &Response{V: ProtocolVersion, Error: &runner.ErrorInfo{Code: code, Reason: reason, Message: fmt.Sprintf(format, args...), Hint: hint}}
	if req != nil {
		resp.ID = req.ID
	}
	return resp
}
