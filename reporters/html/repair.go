package html

import "github.com/adtest/adtest/runner"

// repair is the attempt's repair for the page: its before and after
// screenshots copied below the report (a PNG only, as the failure's), their
// paths dropped when they cannot be.
func (b *builder) repair(r *runner.RepairReport) *runner.RepairReport {
	if r == nil {
		return nil
	}
	c := *r
	c.Before, c.After = b.embed(r.Before, pngPicture), b.embed(r.After, pngPicture)
	return &c
}
