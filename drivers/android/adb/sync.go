package adb

import (
	"context"
	"encoding/binary"
	"fmt"
	"io"
	"os"
	"time"
)

// FileInfo is a sync STAT answer (v1: 32-bit fields).
type FileInfo struct {
	Mode  os.FileMode
	Size  uint32
	Mtime time.Time
	// Exists is false when the device reports mode 0 (no such file).
	Exists bool
}

// syncMax is the largest DATA chunk of the sync protocol.
const syncMax = 64 << 10

func syncReq(cn *conn, id string, arg []byte) error {
	b := make([]byte, 8+len(arg))
	copy(b, id)
	binary.LittleEndian.PutUint32(b[4:], uint32(len(arg)))
	copy(b[8:], arg)
	_, err := cn.Write(b)
	return err
}

func (c *Client) sync(ctx context.Context, serial string) (*conn, error) {
	return c.device(ctx, serial, "sync:")
}

// Stat returns the mode, size and mtime of path on the device.
func (c *Client) Stat(ctx context.Context, serial, path string) (FileInfo, error) {
	ctx, cancel := bound(ctx)
	defer cancel()
	cn, err := c.sync(ctx, serial)
	if err != nil {
		return FileInfo{}, err
	}
	defer cn.Close()
	if err := syncReq(cn, "STAT", []byte(path)); err != nil {
		return FileInfo{}, ctxErr(ctx, "sync STAT", err)
	}
	var b [16]byte
	if _, err := io.ReadFull(cn.r, b[:]); err != nil {
		return FileInfo{}, ctxErr(ctx, "sync STAT", err)
	}
	if string(b[:4]) != "STAT" {
		return FileInfo{}, &Error{Op: "sync STAT", Reason: ReasonProtocol, Message: fmt.Sprintf("answer %q", b[:4])}
	}
	mode := le32(b[4:])
	syncReq(cn, "QUIT", nil)
	return FileInfo{Mode: unixMode(mode), Size: le32(b[8:]), Mtime: time.Unix(int64(le32(b[12:])), 0), Exists: mode != 0}, nil
}

func unixMode(m uint32) os.FileMode {
	fm := os.FileMode(m & 0o777)
	switch m & 0o170000 {
	case 0o040000:
		fm |= os.ModeDir
	case 0o120000:
		fm |= os.ModeSymlink
	}
	return fm
}

// Push writes r to path on the device with mode (e.g. 0644) and mtime.
func (c *Client) Push(ctx context.Context, serial string, r io.Reader, path string, mode os.FileMode, mtime time.Time) error {
	ctx, cancel := bound(ctx)
	defer cancel()
	cn, err := c.sync(ctx, serial)
	if err != nil {
		return err
	}
	defer cn.Close()
	if err := syncReq(cn, "SEND", []byte(fmt.Sprintf("%s,%d", path, uint32(mode.Perm())|0o100000))); err != nil {
		return ctxErr(ctx, "sync SEND", err)
	}
	buf := make([]byte, syncMax)
	for {
		n, rerr := r.Read(buf)
		if n > 0 {
			if err := syncReq(cn, "DATA", buf[:n]); err != nil {
				return ctxErr(ctx, "sync DATA", err)
			}
		}
		if rerr == io.EOF {
			break
		}
		if rerr != nil {
			return rerr
		}
	}
	var done [8]byte
	copy(done[:], "DONE")
	binary.LittleEndian.PutUint32(done[4:], uint32(mtime.Unix()))
	if _, err := cn.Write(done[:]); err != nil {
		return ctxErr(ctx, "sync DONE", err)
	}
	if err := syncStatus(cn, "sync SEND"); err != nil {
		return ctxErr(ctx, "sync SEND", err)
	}
	syncReq(cn, "QUIT", nil)
	return nil
}

// syncStatus reads OKAY or FAIL<len><msg>.
func syncStatus(cn *conn, op string) error {
	var h [8]byte
	if _, err := io.ReadFull(cn.r, h[:]); err != nil {
		return err
	}
	n := le32(h[4:])
	switch string(h[:4]) {
	case "OKAY":
		return nil
	case "FAIL":
		if n > syncMax {
			return &Error{Op: op, Reason: ReasonProtocol, Message: "oversized FAIL"}
		}
		msg := make([]byte, n)
		io.ReadFull(cn.r, msg)
		return &Error{Op: op, Reason: ReasonServerFailed, Message: string(msg)}
	}
	return &Error{Op: op, Reason: ReasonProtocol, Message: fmt.Sprintf("answer %q", h[:4])}
}

// Pull copies path on the device to w.
func (c *Client) Pull(ctx context.Context, serial, path string, w io.Writer) error {
	ctx, cancel := bound(ctx)
	defer cancel()
	cn, err := c.sync(ctx, serial)
	if err != nil {
		return err
	}
	defer cn.Close()
	if err := syncReq(cn, "RECV", []byte(path)); err != nil {
		return ctxErr(ctx, "sync RECV", err)
	}
	for {
		var h [8]byte
		if _, err := io.ReadFull(cn.r, h[:]); err != nil {
			return ctxErr(ctx, "sync RECV", err)
		}
		n := le32(h[4:])
		switch string(h[:4]) {
		case "DATA":
			if n > syncMax {
				return &Error{Op: "sync RECV", Reason: ReasonProtocol, Message: fmt.Sprintf("DATA of %d bytes", n)}
			}
			if _, err := io.CopyN(w, cn.r, int64(n)); err != nil {
				return ctxErr(ctx, "sync RECV", err)
			}
		case "DONE":
			syncReq(cn, "QUIT", nil)
			return nil
		case "FAIL":
			msg := make([]byte, min(n, syncMax))
			io.ReadFull(cn.r, msg)
			return &Error{Op: "sync RECV", Reason: ReasonServerFailed, Message: fmt.Sprintf("%s: %s", path, msg)}
		default:
			return &Error{Op: "sync RECV", Reason: ReasonProtocol, Message: fmt.Sprintf("answer %q", h[:4])}
		}
	}
}
