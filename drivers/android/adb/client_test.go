package adb

import (
	"bufio"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"net"
	"strconv"
	"strings"
	"testing"
	"time"
)

// fakeServer is an in-process adb server speaking the smart-socket host
// protocol for the handful of services the unit tests need.
type fakeServer struct {
	ln       net.Listener
	features string
}

func startFake(t *testing.T, features string) *fakeServer {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	f := &fakeServer{ln: ln, features: features}
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			go f.serve(c)
		}
	}()
	t.Cleanup(func() { ln.Close() })
	return f
}

func okay(w io.Writer, s string) { fmt.Fprintf(w, "OKAY%04x%s", len(s), s) }
func fail(w io.Writer, s string) { fmt.Fprintf(w, "FAIL%04x%s", len(s), s) }

func (f *fakeServer) serve(c net.Conn) {
	defer c.Close()
	r := bufio.NewReader(c)
	for {
		var h [4]byte
		if _, err := io.ReadFull(r, h[:]); err != nil {
			return
		}
		n, _ := strconv.ParseUint(string(h[:]), 16, 16)
		b := make([]byte, n)
		if _, err := io.ReadFull(r, b); err != nil {
			return
		}
		svc := string(b)
		switch {
		case svc == "host:version":
			okay(c, "0029")
			return
		case svc == "host:kill":
			// adb 29.0.6 when its exit blocks: it answers and stays.
			io.WriteString(c, "OKAY")
			return
		case svc == "host:devices-l":
			okay(c, "emulator-5554          device product:sdk model:Pixel_7 device:emu transport_id:3\n10.0.0.2:5555 offline\n")
			return
		case strings.HasSuffix(svc, ":features"):
			okay(c, f.features)
			return
		case svc == "host:transport:nope":
			fail(c, "device 'nope' not found")
			return
		case strings.HasPrefix(svc, "host:transport:"):
			io.WriteString(c, "OKAY")
		case strings.HasPrefix(svc, "shell,v2,raw:"):
			io.WriteString(c, "OKAY")
			cmd := strings.TrimPrefix(svc, "shell,v2,raw:")
			if cmd == "hang" {
				io.Copy(io.Discard, r)
				return
			}
			pk := func(id byte, data []byte) {
				b := make([]byte, 5+len(data))
				b[0] = id
				binary.LittleEndian.PutUint32(b[1:], uint32(len(data)))
				copy(b[5:], data)
				c.Write(b)
			}
			pk(1, []byte("out:"+cmd+"\n"))
			pk(2, []byte("err\n"))
			pk(3, []byte{3})
			return
		case strings.HasPrefix(svc, "shell:"):
			io.WriteString(c, "OKAY")
			io.WriteString(c, "v1:"+strings.TrimPrefix(svc, "shell:")+"\n")
			return
		default:
			fail(c, "unknown service "+svc)
			return
		}
	}
}

func client(t *testing.T, f *fakeServer) *Client {
	c, err := New(Options{Server: f.ln.Addr().String(), NoStart: true})
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func ctx(t *testing.T) context.Context {
	c, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	t.Cleanup(cancel)
	return c
}

func TestHostServicesAgainstFakeServer(t *testing.T) {
	c := client(t, startFake(t, "shell_v2,cmd"))
	v, err := c.Version(ctx(t))
	if err != nil || v != 41 {
		t.Fatalf("version %d %v", v, err)
	}
	devs, err := c.Devices(ctx(t))
	if err != nil {
		t.Fatal(err)
	}
	want := []Device{{Serial: "emulator-5554", State: "device", Product: "sdk", Model: "Pixel_7", DeviceName: "emu", TransportID: "3"}, {Serial: "10.0.0.2:5555", State: "offline"}}
	if fmt.Sprint(devs) != fmt.Sprint(want) {
		t.Errorf("devices %+v", devs)
	}
	_, err = c.Shell(ctx(t), "nope", "true")
	if ReasonOf(err) != ReasonDeviceNotFound || !strings.Contains(err.Error(), "device 'nope' not found") {
		t.Errorf("missing device: %v", err)
	}
}

func TestShellV2AndV1(t *testing.T) {
	c := client(t, startFake(t, "shell_v2,cmd"))
	res, err := c.Shell(ctx(t), "emulator-5554", "echo hi")
	if err != nil {
		t.Fatal(err)
	}
	if string(res.Stdout) != "out:echo hi\n" || string(res.Stderr) != "err\n" || res.ExitCode != 3 {
		t.Errorf("v2: %q %q %d", res.Stdout, res.Stderr, res.ExitCode)
	}
	c1 := client(t, startFake(t, "cmd"))
	res, err = c1.Shell(ctx(t), "emulator-5554", "echo hi")
	if err != nil || string(res.Stdout) != "v1:echo hi\n" || res.ExitCode != -1 {
		t.Errorf("v1: %q %d %v", res.Stdout, res.ExitCode, err)
	}
}

// TestCallsHonourTheirContext: a command that never answers returns when
// the context ends.
func TestCallsHonourTheirContext(t *testing.T) {
	c := client(t, startFake(t, "shell_v2"))
	cx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
	defer cancel()
	start := time.Now()
	_, err := c.Shell(cx, "emulator-5554", "hang")
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("err = %v", err)
	}
	if time.Since(start) > 3*time.Second {
		t.Errorf("took %v", time.Since(start))
	}
}

func TestServerSelection(t *testing.T) {
	env := func(m map[string]string) func(string) string { return func(k string) string { return m[k] } }
	for _, tc := range []struct {
		name string
		opts Options
		want string
		err  string
	}{
		{"flag wins", Options{Server: "farm:7000", Getenv: env(map[string]string{"ADB_SERVER_SOCKET": "tcp:x:1"})}, "farm:7000", ""},
		{"flag without port", Options{Server: "farm"}, "farm:5037", ""},
		{"ADB_SERVER_SOCKET", Options{Getenv: env(map[string]string{"ADB_SERVER_SOCKET": "tcp:10.1.2.3:5038", "ANDROID_ADB_SERVER_PORT": "9"})}, "10.1.2.3:5038", ""},
		{"ANDROID_ADB_SERVER_PORT", Options{Getenv: env(map[string]string{"ANDROID_ADB_SERVER_PORT": "5099"})}, "127.0.0.1:5099", ""},
		{"default", Options{Getenv: env(nil)}, "127.0.0.1:5037", ""},
		{"bad socket", Options{Getenv: env(map[string]string{"ADB_SERVER_SOCKET": "local:/x"})}, "", "is not tcp:HOST:PORT"},
		{"bad port", Options{Getenv: env(map[string]string{"ANDROID_ADB_SERVER_PORT": "abc"})}, "", "is not a port"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c, err := New(tc.opts)
			if tc.err != "" {
				if err == nil || !strings.Contains(err.Error(), tc.err) {
					t.Errorf("err = %v, want %q", err, tc.err)
				}
				return
			}
			if err != nil || c.Addr() != tc.want {
				t.Errorf("addr %v %v, want %s", c, err, tc.want)
			}
		})
	}
}

// TestMissingADBSaysHowToInstall: no server and no binary to start one.
func TestMissingADBSaysHowToInstall(t *testing.T) {
	ln, _ := net.Listen("tcp", "127.0.0.1:0")
	addr := ln.Addr().String()
	ln.Close()
	c, err := New(Options{Server: addr, ADBPath: "/nonexistent/adb"})
	if err != nil {
		t.Fatal(err)
	}
	err = c.EnsureServer(ctx(t))
	if ReasonOf(err) != ReasonADBMissing || !strings.Contains(err.Error(), "apt-get install adb") {
		t.Errorf("err = %v", err)
	}
	if c2, _ := New(Options{Server: addr, NoStart: true}); ReasonOf(c2.EnsureServer(ctx(t))) != ReasonServerUnavailable {
		t.Errorf("NoStart: want server_unavailable")
	}
}

func TestQuote(t *testing.T) {
	for in, want := range map[string]string{"abc": "abc", "a b": "'a b'", "it's": `'it'\''s'`, "": "''", "x=1,y/z": "x=1,y/z"} {
		if got := Quote(in); got != want {
			t.Errorf("Quote(%q) = %q, want %q", in, got, want)
		}
	}
}
