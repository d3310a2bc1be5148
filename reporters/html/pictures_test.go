package html

import (
	"errors"
	"strings"
	"testing"
)

func TestEmbed(t *testing.T) {
	t.Parallel()
	const (
		png  = "\x89PNG\r\n\x1a\n one"
		jpeg = "\xff\xd8\xff two"
	)
	files := map[string]string{"a.png": png, "copy.png": png, "b.jpg": jpeg, "notes.txt": "not a picture"}
	b := &builder{files: map[string][]byte{}, opts: Options{ReadFile: func(name string) ([]byte, error) {
		if s, ok := files[name]; ok {
			return []byte(s), nil
		}
		return nil, errors.New("no such file")
	}}}
	tests := []struct {
		name, path string
		kind       picture
		ext        string // "" when nothing is copied
	}{
		{"a PNG", "a.png", pngPicture, ".png"},
		{"the same PNG under another name", "copy.png", pngPicture, ".png"},
		{"a JPEG", "b.jpg", jpegPicture, ".jpg"},
		{"a JPEG where a PNG is wanted", "b.jpg", pngPicture, ""},
		{"a PNG where a JPEG is wanted", "a.png", jpegPicture, ""},
		{"not a picture", "notes.txt", pngPicture, ""},
		{"a missing file", "gone.png", pngPicture, ""},
		{"no name", "", pngPicture, ""},
	}
	for _, tc := range tests {
		got := b.embed(tc.path, tc.kind)
		if tc.ext == "" {
			if got != "" {
				t.Errorf("%s: embedded as %q, want nothing", tc.name, got)
			}
			continue
		}
		// WriteDir must recognise the name as one of its own data/ files.
		if !strings.HasPrefix(got, "data/") || !dataFile.MatchString(strings.TrimPrefix(got, "data/")) || !strings.HasSuffix(got, tc.ext) {
			t.Errorf("%s: embedded as %q, want data/<16 hex digits>%s", tc.name, got, tc.ext)
			continue
		}
		if string(b.files[got]) != files[tc.path] {
			t.Errorf("%s: data of %q is %q, want %q", tc.name, got, b.files[got], files[tc.path])
		}
	}
	if len(b.files) != 2 {
		t.Errorf("data/ holds %d files, want 2 (one copy of the PNG named twice, the JPEG)", len(b.files))
	}
}
