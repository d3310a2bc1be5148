package html

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
)

// The report's pictures (the failure's screenshot, the repair's before and
// after, the trace's steps) are copied under data/, named by their content
// hash, and the page refers to them by that relative name: no network, and
// one copy of a picture that several places show.

// picture is a kind of image the report copies: its file signature and the
// extension its copy gets. Only these kinds are copied: a result names the
// file, and a merged result may come from anywhere.
type picture struct {
	signature []byte
	ext       string
}

var (
	pngPicture  = picture{[]byte("\x89PNG\r\n\x1a\n"), ".png"}
	jpegPicture = picture{[]byte{0xff, 0xd8, 0xff}, ".jpg"}
)

// embed copies the picture at name (read through Options.ReadFile) into
// data/ and returns its name there, "" when it is not a readable picture
// of kind k.
func (b *builder) embed(name string, k picture) string {
	data, ok := b.read(name)
	if !ok || !bytes.HasPrefix(data, k.signature) {
		return ""
	}
	sum := sha256.Sum256(data)
	out := "data/" + hex.EncodeToString(sum[:8]) + k.ext
	b.files[out] = data
	return out
}
