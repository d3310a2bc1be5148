// Package fakedevice is a test device that speaks the adbd side of the ADB
// transport over TCP (CNXN, OPEN, OKAY, WRTE, CLSE with one write in flight
// per stream), so that a real adb server accepts it with
// `adb connect 127.0.0.1:PORT`. It serves shell (v2 and v1), exec, sync v1
// and tcp: streams (the targets of adb forward), runs a scriptable app from
// a drivers/fake screens file, and emulates agent-device's snapshot helper
// (its instrumentation output and its session socket protocol).
//
// It is test-only infrastructure; cmd/adtest-fakedevice runs it for people
// who want to try the Android driver without an emulator.
package fakedevice

import (
	"bufio"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"net"
	"strings"
	"sync"
)

// Transport commands (adb/protocol.txt).
const (
	aCNXN = 0x4e584e43
	aOPEN = 0x4e45504f
	aOKAY = 0x59414b4f
	aCLSE = 0x45534c43
	aWRTE = 0x45545257
	aAUTH = 0x48545541

	aVersion   = 0x01000001 // skip-checksum version
	maxPayload = 256 << 10
)

type packet struct {
	cmd, arg0, arg1 uint32
	data            []byte
}

func readPacket(r io.Reader) (packet, error) {
	var h [24]byte
	if _, err := io.ReadFull(r, h[:]); err != nil {
		return packet{}, err
	}
	p := packet{cmd: binary.LittleEndian.Uint32(h[0:]), arg0: binary.LittleEndian.Uint32(h[4:]), arg1: binary.LittleEndian.Uint32(h[8:])}
	n := binary.LittleEndian.Uint32(h[12:])
	if binary.LittleEndian.Uint32(h[20:]) != p.cmd^0xffffffff {
		return packet{}, fmt.Errorf("bad magic for command %#x", p.cmd)
	}
	if n > 1<<20 {
		return packet{}, fmt.Errorf("payload of %d bytes", n)
	}
	p.data = make([]byte, n)
	if _, err := io.ReadFull(r, p.data); err != nil {
		return packet{}, err
	}
	return p, nil
}

func encodePacket(p packet) []byte {
	b := make([]byte, 24+len(p.data))
	binary.LittleEndian.PutUint32(b[0:], p.cmd)
	binary.LittleEndian.PutUint32(b[4:], p.arg0)
	binary.LittleEndian.PutUint32(b[8:], p.arg1)
	binary.LittleEndian.PutUint32(b[12:], uint32(len(p.data)))
	var sum uint32
	for _, c := range p.data {
		sum += uint32(c)
	}
	binary.LittleEndian.PutUint32(b[16:], sum)
	binary.LittleEndian.PutUint32(b[20:], p.cmd^0xffffffff)
	copy(b[24:], p.data)
	return b
}

// transport is one connection from the adb server.
type transport struct {
	dev     *Device
	conn    net.Conn
	wmu     sync.Mutex
	maxData int

	mu      sync.Mutex
	nextID  uint32
	streams map[uint32]*stream
}

func (t *transport) send(p packet) error {
	t.wmu.Lock()
	defer t.wmu.Unlock()
	_, err := t.conn.Write(encodePacket(p))
	return err
}

func (t *transport) serve() {
	defer t.conn.Close()
	defer t.closeAll()
	r := bufio.NewReaderSize(t.conn, 64<<10)
	first, err := readPacket(r)
	if err != nil || first.cmd != aCNXN {
		return
	}
	t.maxData = min(int(first.arg1), maxPayload)
	if t.maxData <= 0 {
		t.maxData = 4096
	}
	banner := "device::ro.product.name=" + t.dev.opts.Product + ";ro.product.model=" + t.dev.opts.Model +
		";ro.product.device=" + t.dev.opts.Product + ";features=" + strings.Join(t.dev.opts.Features, ",")
	if err := t.send(packet{cmd: aCNXN, arg0: aVersion, arg1: uint32(t.maxData), data: []byte(banner)}); err != nil {
		return
	}
	for {
		p, err := readPacket(r)
		if err != nil {
			return
		}
		switch p.cmd {
		case aCNXN:
			t.send(packet{cmd: aCNXN, arg0: aVersion, arg1: uint32(t.maxData), data: []byte(banner)})
		case aOPEN:
			service := strings.TrimRight(string(p.data), "\x00")
			t.open(p.arg0, service)
		case aOKAY:
			if s := t.stream(p.arg1); s != nil {
				s.okayed(p.arg0)
			}
		case aWRTE:
			if s := t.stream(p.arg1); s != nil {
				s.deliver(p.data)
				t.send(packet{cmd: aOKAY, arg0: p.arg1, arg1: p.arg0})
			}
		case aCLSE:
			if s := t.stream(p.arg1); s != nil {
				s.peerClosed()
			}
		}
	}
}

func (t *transport) stream(id uint32) *stream {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.streams[id]
}

func (t *transport) closeAll() {
	t.mu.Lock()
	list := make([]*stream, 0, len(t.streams))
	for _, s := range t.streams {
		list = append(list, s)
	}
	t.mu.Unlock()
	for _, s := range list {
		s.peerClosed()
	}
}

func (t *transport) open(remote uint32, service string) {
	h := t.dev.handler(service)
	if h == nil {
		t.send(packet{cmd: aCLSE, arg0: 0, arg1: remote})
		return
	}
	t.mu.Lock()
	t.nextID++
	s := &stream{t: t, local: t.nextID, remote: remote, okay: make(chan struct{}, 1), done: make(chan struct{})}
	s.cond = sync.NewCond(&s.mu)
	t.streams[s.local] = s
	t.mu.Unlock()
	if err := t.send(packet{cmd: aOKAY, arg0: s.local, arg1: remote}); err != nil {
		return
	}
	go func() {
		defer s.Close()
		h(s)
	}()
}

// stream is one adb socket, an io.ReadWriteCloser for its service.
type stream struct {
	t             *transport
	local, remote uint32

	mu     sync.Mutex
	cond   *sync.Cond
	buf    []byte
	eof    bool
	closed bool

	okay chan struct{}
	done chan struct{}
	once sync.Once
}

var errClosed = errors.New("stream closed")

func (s *stream) deliver(b []byte) {
	s.mu.Lock()
	s.buf = append(s.buf, b...)
	s.mu.Unlock()
	s.cond.Broadcast()
}

func (s *stream) okayed(uint32) {
	select {
	case s.okay <- struct{}{}:
	default:
	}
}

func (s *stream) peerClosed() {
	s.mu.Lock()
	s.eof = true
	s.mu.Unlock()
	s.cond.Broadcast()
	s.once.Do(func() { close(s.done) })
	s.t.mu.Lock()
	delete(s.t.streams, s.local)
	s.t.mu.Unlock()
}

func (s *stream) Read(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for len(s.buf) == 0 && !s.eof {
		s.cond.Wait()
	}
	if len(s.buf) == 0 {
		return 0, io.EOF
	}
	n := copy(p, s.buf)
	s.buf = s.buf[n:]
	return n, nil
}

// Write sends b in chunks of at most maxData, waiting for the OKAY of each.
func (s *stream) Write(b []byte) (int, error) {
	written := 0
	for len(b) > 0 {
		n := min(len(b), s.t.maxData)
		select {
		case <-s.done:
			return written, errClosed
		default:
		}
		if err := s.t.send(packet{cmd: aWRTE, arg0: s.local, arg1: s.remote, data: b[:n]}); err != nil {
			return written, err
		}
		select {
		case <-s.okay:
		case <-s.done:
			return written, errClosed
		}
		written += n
		b = b[n:]
	}
	return written, nil
}

// Close sends CLSE once.
func (s *stream) Close() error {
	s.mu.Lock()
	already := s.closed
	s.closed = true
	s.mu.Unlock()
	if !already {
		s.t.send(packet{cmd: aCLSE, arg0: s.local, arg1: s.remote})
	}
	s.peerClosed()
	return nil
}

// Done is closed when either side closed the stream.
func (s *stream) Done() <-chan struct{} { return s.done }
