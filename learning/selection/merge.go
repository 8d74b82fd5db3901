package selection

import (
	"context"
	"fmt"
)

// MergeDirs reads the results of p's tasks from the folders dirs
// (ReadResults) and merges them into the grid's table (Merge); planPath
// names the plan in errors. It stops with ctx's error once ctx is
// cancelled.
func MergeDirs(ctx context.Context, p *Plan, planPath string, dirs []string) (*Table, error) {
	res, err := ReadResults(p, dirs)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", planPath, err)
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	return Merge(p, res), nil
}
