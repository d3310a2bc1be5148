package reporters

import (
	"encoding/json"
	"io"

	"github.com/adtest/adtest/runner"
)

// WriteJSON writes design.md's JSON result.
func WriteJSON(w io.Writer, r *runner.Result) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(r)
}

// ReadJSON reads a JSON result (merge-reports, --shard-weights).
func ReadJSON(rd io.Reader) (*runner.Result, error) {
	var r runner.Result
	dec := json.NewDecoder(rd)
	if err := dec.Decode(&r); err != nil {
		return nil, err
	}
	return &r, nil
}
