package html

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"

	"github.com/adtest/adtest/runner"
)

// repair is the attempt's repair for the page: its before and after
// screenshots copied below the report (a PNG only, as the failure's), their
// paths dropped when they cannot be.
func (b *builder) repair(r *runner.RepairReport) *runner.RepairReport {
	if r == nil {
		return nil
	}
	c := *r
	c.Before, c.After = b.image(r.Before), b.image(r.After)
	return &c
}

// image copies the PNG at name into data/ and returns its name there, ""
// when it is not a readable PNG.
func (b *builder) image(name string) string {
	if name == "" {
		return ""
	}
	data, ok := b.read(name)
	if !ok || !bytes.HasPrefix(data, pngSignature) {
		return ""
	}
	sum := sha256.Sum256(data)
	out := "data/" + hex.EncodeToString(sum[:8]) + ".png"
	b.files[out] = data
	return out
}
