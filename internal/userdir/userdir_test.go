package userdir

import (
	"os"
	"path/filepath"
	"strconv"
	"testing"
)

func TestDir(t *testing.T) {
	t.Parallel()
	tmp := filepath.Join(os.TempDir(), "adtest-"+strconv.Itoa(os.Getuid()))
	all := map[string]string{
		"ADTEST_CACHE_DIR": "/c", "XDG_CACHE_HOME": "/xc", "XDG_STATE_HOME": "/xs",
		"XDG_RUNTIME_DIR": "/run/user/1", "HOME": "/home/u",
	}
	without := func(names ...string) map[string]string {
		m := map[string]string{}
		for k, v := range all {
			m[k] = v
		}
		for _, n := range names {
			delete(m, n)
		}
		return m
	}
	tests := []struct {
		name   string
		kind   Kind
		env    map[string]string
		osHome string
		want   string
	}{
		{"cache: the adtest variable first", Cache, all, "", "/c"},
		{"cache: then XDG", Cache, without("ADTEST_CACHE_DIR"), "", "/xc/adtest"},
		{"cache: a relative XDG is ignored", Cache, map[string]string{"XDG_CACHE_HOME": "rel", "HOME": "/home/u"}, "", "/home/u/.cache/adtest"},
		{"cache: nothing set", Cache, nil, "", filepath.Join(tmp, "cache")},
		{"state: XDG first", State, all, "", "/xs/adtest"},
		{"state: then HOME", State, without("XDG_STATE_HOME"), "", "/home/u/.local/state/adtest"},
		{"state: a relative HOME is ignored", State, map[string]string{"HOME": "home"}, "", tmp},
		{"runtime: XDG_RUNTIME_DIR first", Runtime, all, "", "/run/user/1/adtest"},
		{"runtime: then the state order", Runtime, without("XDG_RUNTIME_DIR"), "", "/xs/adtest"},
		{"runtime: then HOME", Runtime, map[string]string{"HOME": "/home/u"}, "", "/home/u/.local/state/adtest"},
		{"runtime: nothing set", Runtime, nil, "", tmp},
		{"state: HOME from the system when the environment has none", State, nil, "/root", "/root/.local/state/adtest"},
		{"cache: HOME from the system when the environment has none", Cache, nil, "/root", "/root/.cache/adtest"},
		{"cache: the environment's HOME first", Cache, map[string]string{"HOME": "/home/u"}, "/root", "/home/u/.cache/adtest"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			if got := resolve(func(k string) string { return tt.env[k] }, tt.osHome, tt.kind); got != tt.want {
				t.Errorf("Dir = %s, want %s", got, tt.want)
			}
		})
	}
}
