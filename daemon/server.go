package daemon

import (
	"bufio"
	"context"
	"crypto/rand"
	"crypto/subtle"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"sync"
	"syscall"
	"time"

	"github.com/adtest/adtest/drivers"
	"github.com/adtest/adtest/internal/atomicfile"
	"github.com/adtest/adtest/internal/proc"
	"github.com/adtest/adtest/runner"
)

// DefaultIdleTimeout is how long a daemon without sessions waits before it exits.
const DefaultIdleTimeout = 15 * time.Minute

// maxSocketPath is the longest unix socket path Linux accepts.
const maxSocketPath = 107

// DefaultCommandTimeout bounds one command in the daemon when the request
// gives no timeout: long enough for any wait a person types; a client that
// gives up (Ctrl-C) cancels its command at once anyway.
const DefaultCommandTimeout = 10 * time.Minute

// requestReadTimeout bounds how long a connection may take to send its
// request, responseWriteTimeout how long a client may take to read the answer.
const (
	requestReadTimeout   = 10 * time.Second
	responseWriteTimeout = 30 * time.Second
)

// ProviderFunc returns the warm helper of a platform (the browser for web,
// the adb transport for Android). The daemon calls it once per platform and
// keeps the provider until it exits.
type ProviderFunc func(ctx context.Context, platform string) (drivers.Provider, error)

// Config configures a daemon.
type Config struct {
	// Dir is the daemon directory (DefaultDir when empty).
	Dir string
	// Listen is an optional TCP HOST:PORT for remote clients; they must send
	// the token the daemon writes to Dir/token. It must be a loopback
	// address unless AllowRemote (see remote.go).
	Listen string
	// AllowRemote accepts a non-loopback Listen (clear-text traffic).
	AllowRemote bool
	// IdleTimeout: exit after this long without sessions and requests
	// (DefaultIdleTimeout when 0; negative: never).
	IdleTimeout time.Duration
	// Version is the adtest build; clients of another build are refused.
	Version string
	// ADBServer is the adb server HOST:PORT this daemon's Android sessions
	// use and ADBServerFrom where that came from ("--adb-server",
	// "ADB_SERVER_SOCKET=...", "the default"); see adb.go.
	ADBServer, ADBServerFrom string
	// Providers opens the helper of a platform.
	Providers ProviderFunc
	// DefaultPlatform is the platform of an open without --platform ("web").
	DefaultPlatform string
	// Session is the template of every runner session (timeouts, clock).
	Session runner.SessionConfig
	// Recorders builds the recorder of a session armed with --save-script
	// (nil: recording is refused).
	Recorders RecorderFunc
	// WriteScript publishes a recording (atomic, exclusive unless force).
	WriteScript WriteScriptFunc
	// ScriptDir is where a recording without an explicit path is written.
	ScriptDir string
	// Ready, when set, receives the socket path (and TCP address) once the
	// daemon accepts connections.
	Ready func(socket, tcpAddr string)
	// Logf receives diagnostics (nil: discarded).
	Logf func(format string, args ...any)
	// Reaper records the helper processes the daemon started (kept in
	// sessions.json while sessions live) and, after a crash, disposes of
	// what the dead daemon left (nil: nothing is recorded or reaped).
	Reaper Reaper
}

// Reaper is the helper-lifetime seam of the daemon (ADR 0002: stale helpers
// are disposable). The browser's is web.Reaper.
type Reaper interface {
	// Record describes this process's helpers; nil when it has none.
	Record() json.RawMessage
	// Reap kills what a dead daemon's Record names and removes what they
	// left; it returns how many processes it killed. Bounded.
	Reap(record json.RawMessage) int
}

// ErrAlreadyRunning is returned by Serve when another daemon holds the directory.
var ErrAlreadyRunning = errors.New("another adtest daemon is running in this directory")

// Info is what daemon.json and the status request report.
type Info struct {
	PID         int           `json:"pid"`
	Version     string        `json:"version"`
	Protocol    int           `json:"protocol"`
	StartedAt   time.Time     `json:"startedAt"`
	Socket      string        `json:"socket"`
	Listen      string        `json:"listen,omitempty"`
	IdleTimeout string        `json:"idleTimeout"`
	Sessions    []SessionInfo `json:"sessions"`
	Lost        []string      `json:"lost,omitempty"`
	RSSBytes    int64         `json:"rssBytes,omitempty"`
	Requests    int64         `json:"requests"`
}

// Server is a running daemon.
type Server struct {
	cfg     Config
	ctx     context.Context // cancelled when the daemon stops
	stop    context.CancelFunc
	token   string
	info    Info
	reg     *registry
	conns   sync.WaitGroup
	mu      sync.Mutex
	active  int // requests in flight
	served  int64
	touched chan struct{}
}

// Serve runs a daemon until it is stopped (a stop request, ctx, or the idle
// timeout). It returns ErrAlreadyRunning when another daemon owns cfg.Dir.
// On return no socket, token or session of it remains.
func Serve(ctx context.Context, cfg Config) error {
	if cfg.Dir == "" {
		cfg.Dir = DefaultDir(nil)
	}
	if cfg.IdleTimeout == 0 {
		cfg.IdleTimeout = DefaultIdleTimeout
	}
	if cfg.DefaultPlatform == "" {
		cfg.DefaultPlatform = drivers.PlatformWeb
	}
	if cfg.Logf == nil {
		cfg.Logf = func(string, ...any) {}
	}
	if cfg.Providers == nil {
		return errors.New("daemon: no providers configured")
	}
	if cfg.Listen != "" {
		if err := checkListen(cfg.Listen, cfg.AllowRemote); err != nil {
			return err
		}
	}
	if err := ensureDir(cfg.Dir); err != nil {
		return err
	}
	lock, err := os.OpenFile(filepath.Join(cfg.Dir, lockName), os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		return err
	}
	defer lock.Close()
	if err := syscall.Flock(int(lock.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		return ErrAlreadyRunning
	}
	defer syscall.Flock(int(lock.Fd()), syscall.LOCK_UN)

	s := &Server{cfg: cfg, touched: make(chan struct{}, 1)}
	s.ctx, s.stop = context.WithCancel(ctx)
	defer s.stop()
	s.reg = newRegistry(s)
	s.reg.loadLost()

	sock := filepath.Join(cfg.Dir, SocketName)
	if len(sock) > maxSocketPath {
		return fmt.Errorf("daemon: the socket path %s is longer than %d bytes, the limit of unix sockets; set ADTEST_DAEMON_DIR (or XDG_RUNTIME_DIR) to a shorter directory", sock, maxSocketPath)
	}
	_ = os.Remove(sock) // a stale socket of a dead daemon (we hold the lock)
	old := syscall.Umask(0o077)
	ul, err := net.Listen("unix", sock)
	syscall.Umask(old)
	if err != nil {
		return fmt.Errorf("daemon: listen on %s: %w", sock, err)
	}
	if err := os.Chmod(sock, 0o600); err != nil {
		ul.Close()
		return err
	}
	listeners := []net.Listener{ul}
	var tcpAddr string
	if cfg.Listen != "" {
		var b [32]byte
		if _, err := rand.Read(b[:]); err != nil {
			ul.Close()
			return err
		}
		s.token = hex.EncodeToString(b[:])
		if err := atomicfile.WriteFile(filepath.Join(cfg.Dir, tokenName), []byte(s.token+"\n"), atomicfile.Options{Perm: 0o600}); err != nil {
			ul.Close()
			return err
		}
		tl, err := net.Listen("tcp", cfg.Listen)
		if err != nil {
			ul.Close()
			os.Remove(filepath.Join(cfg.Dir, tokenName))
			return fmt.Errorf("daemon: --listen %s: %w", cfg.Listen, err)
		}
		tcpAddr = tl.Addr().String()
		listeners = append(listeners, tl)
	}
	s.info = Info{PID: os.Getpid(), Version: cfg.Version, Protocol: ProtocolVersion, StartedAt: time.Now().UTC(),
		Socket: sock, Listen: tcpAddr, IdleTimeout: idleText(cfg.IdleTimeout)}
	if b, err := json.MarshalIndent(s.info, "", "  "); err == nil {
		_ = atomicfile.WriteFile(filepath.Join(cfg.Dir, infoName), append(b, '\n'), atomicfile.Options{Perm: 0o600})
	}
	defer s.cleanup()

	for i, l := range listeners {
		tcp := i > 0
		go s.accept(l, tcp)
	}
	if cfg.Ready != nil {
		cfg.Ready(sock, tcpAddr)
	}
	s.idleLoop()
	for _, l := range listeners {
		l.Close()
	}
	return nil
}

func idleText(d time.Duration) string {
	if d < 0 {
		return "never"
	}
	return d.String()
}

// cleanup runs when the daemon stops: sessions and providers are closed, and
// the socket, token and info files removed.
func (s *Server) cleanup() {
	s.conns.Wait()
	s.reg.closeAll()
	for _, n := range []string{SocketName, infoName, tokenName} {
		_ = os.Remove(filepath.Join(s.cfg.Dir, n))
	}
	s.reg.saveState()
}

// idleLoop returns when the daemon is stopped or has been idle (no sessions,
// no request in flight) for IdleTimeout.
func (s *Server) idleLoop() {
	if s.cfg.IdleTimeout < 0 {
		<-s.ctx.Done()
		return
	}
	t := time.NewTimer(s.cfg.IdleTimeout)
	defer t.Stop()
	for {
		select {
		case <-s.ctx.Done():
			return
		case <-s.touched:
			if !t.Stop() {
				select {
				case <-t.C:
				default:
				}
			}
			t.Reset(s.cfg.IdleTimeout)
		case <-t.C:
			s.mu.Lock()
			idle := s.active == 0 && s.reg.count() == 0
			s.mu.Unlock()
			if idle {
				s.cfg.Logf("idle for %s without sessions: exiting", s.cfg.IdleTimeout)
				s.stop()
				return
			}
			t.Reset(s.cfg.IdleTimeout)
		}
	}
}

func (s *Server) touch() {
	select {
	case s.touched <- struct{}{}:
	default:
	}
}

func (s *Server) accept(l net.Listener, tcp bool) {
	for {
		c, err := l.Accept()
		if err != nil {
			if s.ctx.Err() != nil || errors.Is(err, net.ErrClosed) {
				return
			}
			s.cfg.Logf("accept: %v", err)
			continue
		}
		s.conns.Add(1)
		go func() {
			defer s.conns.Done()
			s.handle(c, tcp)
		}()
	}
}

// handle serves one connection: one request, one response. The request's
// context ends when the client goes away, so a killed client cancels its
// command and releases the session.
func (s *Server) handle(c net.Conn, tcp bool) {
	defer c.Close()
	s.mu.Lock()
	s.active++
	s.served++
	s.mu.Unlock()
	s.touch()
	defer func() {
		s.mu.Lock()
		s.active--
		s.mu.Unlock()
		s.touch()
	}()
	// Until a TCP client has shown the token, nothing it is told names this
	// build (stampAnon): an unauthenticated peer learns the protocol only.
	pre := s.stamp
	if tcp {
		pre = s.stampAnon
	}
	if s.ctx.Err() != nil {
		_ = writeMessage(c, pre(failure(nil, runner.CodeCommandFailed, drivers.ReasonShuttingDown, "Retry the command: a new daemon starts.", "The adtest daemon is shutting down")))
		return
	}
	_ = c.SetReadDeadline(time.Now().Add(requestReadTimeout))
	br := bufio.NewReaderSize(c, 64<<10)
	line, err := readLine(br, MaxRequestBytes)
	if err != nil {
		if errors.Is(err, errTooLarge) {
			_ = writeMessage(c, pre(failure(nil, runner.CodeInvalidArgs, drivers.ReasonRequestTooLarge, "Send smaller requests.", "Request larger than %d bytes refused", MaxRequestBytes)))
		}
		return
	}
	var req Request
	if err := json.Unmarshal(line, &req); err != nil {
		_ = writeMessage(c, pre(failure(nil, runner.CodeInvalidArgs, drivers.ReasonBadRequest, "The request must be one JSON object per line.", "Malformed request: %v", err)))
		return
	}
	if tcp && (s.token == "" || subtle.ConstantTimeCompare([]byte(req.Token), []byte(s.token)) != 1) {
		_ = writeMessage(c, pre(failure(&req, runner.CodeCommandFailed, drivers.ReasonUnauthorized, "Pass the token the daemon wrote to its token file (ADTEST_DAEMON_TOKEN).", "Unauthorized: missing or wrong daemon token")))
		return
	}
	// A stop of the same protocol is honoured across builds, so that a
	// rebuilt adtest can stop the daemon of the previous one.
	if req.V != ProtocolVersion || (req.Version != s.cfg.Version && req.Op != OpStop) {
		_ = writeMessage(c, s.stamp(versionMismatch(&req, req.V, req.Version, ProtocolVersion, s.cfg.Version)))
		return
	}
	_ = c.SetReadDeadline(time.Time{})

	ctx, cancel := context.WithCancel(s.ctx)
	defer cancel()
	go func() {
		// Nothing more is expected from the client: a read returns when it
		// closes the connection (or when handle closes it at the end).
		var b [1]byte
		_, _ = br.Read(b[:])
		cancel()
	}()
	resp := s.serve(ctx, &req)
	resp.ID = req.ID
	_ = c.SetWriteDeadline(time.Now().Add(responseWriteTimeout))
	_ = writeMessage(c, s.stamp(resp))
}

func versionMismatch(req *Request, clientProto int, clientVersion string, daemonProto int, daemonVersion string) *Response {
	return failure(req, runner.CodeCommandFailed, drivers.ReasonVersionMismatch,
		"Run `adtest daemon stop` (it stops a daemon of another build too), then retry.",
		"adtest client %s (protocol %d) and daemon %s (protocol %d) are different versions; refusing to talk",
		quoteVersion(clientVersion), clientProto, quoteVersion(daemonVersion), daemonProto)
}

func quoteVersion(v string) string {
	if v == "" {
		return `""`
	}
	return v
}

// stampAnon is stamp without the build: the answer to a TCP client that has
// not shown the token yet.
func (s *Server) stampAnon(r *Response) *Response {
	r.V = ProtocolVersion
	if r.Error != nil {
		r.OK = false
	}
	return r
}

func (s *Server) stamp(r *Response) *Response {
	r.V = ProtocolVersion
	r.Version = s.cfg.Version
	if r.Error != nil {
		r.OK = false
	}
	return r
}

// serve answers one authorised request.
func (s *Server) serve(ctx context.Context, req *Request) *Response {
	switch req.Op {
	case OpStatus:
		return &Response{OK: true, Data: map[string]any{"daemon": s.status()}}
	case OpSessions:
		list := s.reg.list()
		return &Response{OK: true, Data: map[string]any{"sessions": list}}
	case OpStop:
		s.cfg.Logf("stop requested")
		s.stop()
		return &Response{OK: true, Text: "adtest daemon stopped"}
	case OpSaveScript:
		return s.reg.saveScript(ctx, req)
	case OpReplay:
		timeout := DefaultReplayTimeout
		if req.TimeoutMs > 0 {
			timeout = time.Duration(req.TimeoutMs) * time.Millisecond
		}
		cctx, cancel := context.WithTimeout(ctx, timeout)
		defer cancel()
		return s.reg.replay(cctx, req)
	case OpCommand:
		timeout := DefaultCommandTimeout
		if req.TimeoutMs > 0 {
			timeout = time.Duration(req.TimeoutMs) * time.Millisecond
		}
		cctx, cancel := context.WithTimeout(ctx, timeout)
		defer cancel()
		return s.reg.command(cctx, req)
	}
	return failure(req, runner.CodeInvalidArgs, drivers.ReasonBadRequest, "", "Unknown request op %q", req.Op)
}

func (s *Server) status() Info {
	in := s.info
	in.Sessions = s.reg.list()
	in.Lost = s.reg.lostNames()
	in.RSSBytes = proc.SelfRSS()
	s.mu.Lock()
	in.Requests = s.served
	s.mu.Unlock()
	return in
}
