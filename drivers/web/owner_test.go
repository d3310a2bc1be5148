package web

import (
	"os"
	"path/filepath"
	"strconv"
	"testing"
)

// ownerAlive reads the profile's owner record: this process is alive, a
// record with another start time or a pid that names nothing is not, and an
// empty record (being written) leaves a young directory alone.
func TestOwnerAliveReadsTheRecord(t *testing.T) {
	for _, tc := range []struct {
		name, record string
		want         bool
	}{
		{"this process", "", true},
		{"reused pid", "%d 1", false},
		{"not a pid", "notapid 12", false},
		{"empty, young", " ", true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			path := filepath.Join(dir, ownerFile)
			var err error
			switch tc.record {
			case "":
				err = writeOwner(dir)
			case "%d 1":
				err = os.WriteFile(path, []byte(itoa(os.Getpid())+" 1\n"), 0o600)
			default:
				err = os.WriteFile(path, []byte(tc.record), 0o600)
			}
			if err != nil {
				t.Fatal(err)
			}
			info, err := os.Stat(dir)
			if err != nil {
				t.Fatal(err)
			}
			if got := ownerAlive(dir, info); got != tc.want {
				t.Errorf("ownerAlive = %v, want %v", got, tc.want)
			}
		})
	}
}

func itoa(n int) string { return strconv.Itoa(n) }
