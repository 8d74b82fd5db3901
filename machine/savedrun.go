package machine

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strings"

	"mark1/internal/base/atomicfile"
)

// A SavePlan says where and when RunSaved saves a session's machine.
type SavePlan struct {
	// Out is the file the finished run is saved to (atomically).
	Out string
	// Resumed is the machine file the session continues, if any: saving
	// over it is continuing it, not replacing another machine.
	Resumed string
	// Checkpoint, if positive, saves the machine every Checkpoint epochs
	// as well, before the last; at most MaxEpochLimit.
	Checkpoint int
	// StopOnWriteError stops the run when a checkpoint or the recorder
	// fails; otherwise the failure is told to OnWriteError and the run goes
	// on (the final save is always tried).
	StopOnWriteError bool
	// OnWriteError, if not nil, is told of each failed write that does not
	// stop the run.
	OnWriteError func(error)
	// OnCheckpoint, if not nil, is told of each checkpoint saved.
	OnCheckpoint func(epoch int, path string)
}

// Validate reports a setting of the plan out of range as a *FieldError
// in the plan's words: "checkpoint" outside [0, MaxEpochLimit]. RunSaved
// calls it; a front end may call it before any work.
func (p SavePlan) Validate() error {
	if p.Checkpoint < 0 || p.Checkpoint > MaxEpochLimit {
		return fieldErr("checkpoint", p.Checkpoint, "a whole number of epochs in [0, %d] (0: none)", MaxEpochLimit)
	}
	return nil
}

// Partial returns the file a run cut short saves to: Out, or, when Out
// already holds a machine other than the one resumed (a new run would
// replace it), the file beside it, NAME.interrupted.json, so that only a
// finished run replaces an earlier machine.
func (p SavePlan) Partial() string {
	if p.replacing() {
		return strings.TrimSuffix(p.Out, ".json") + ".interrupted.json"
	}
	return p.Out
}

func (p SavePlan) replacing() bool {
	_, err := os.Stat(p.Out)
	return err == nil && p.Out != p.Resumed
}

// A SavedRun is what RunSaved did.
type SavedRun struct {
	// Path is the file the machine was saved to: Out, or Partial for an
	// interrupted run.
	Path string
	// Kept is the earlier machine a new run cut short left as it was
	// (Out), or "".
	Kept string
	// Interrupted reports that ctx was cancelled: the machine was saved as
	// of its last complete epoch.
	Interrupted bool
	// Checkpointed reports that a checkpoint was saved.
	Checkpointed bool
	// WriteFails counts the checkpoint and recorder writes that failed;
	// LastWriteErr is the last of them.
	WriteFails   int
	LastWriteErr error
}

// ErrWrites is wrapped by RunSaved's error when the machine was saved but
// some checkpoint or recorder writes failed.
var ErrWrites = errors.New("checkpoint or recorder writes failed")

// RunSaved runs s to its end as Run does, telling rec of every epoch, and
// saves the machine as plan says, safe against interruption:
//
//   - every plan.Checkpoint epochs it saves the machine to plan.Partial();
//   - cancelled (ctx), it rolls the machine back to its last complete epoch
//     and saves it to plan.Partial(), returning ctx's error: a run resumed
//     from that file ends exactly where an uninterrupted one would;
//   - finished, or stopped by rec or by a write error, it saves the
//     machine to plan.Out and removes this run's checkpoint beside an
//     earlier machine it now replaces.
//
// The machine files are written atomically (Machine.Save). A failed
// recorder or checkpoint write stops the run only with
// plan.StopOnWriteError; otherwise the run goes on and, once the machine is
// saved, RunSaved returns an error wrapping ErrWrites.
func (s *Session) RunSaved(ctx context.Context, plan SavePlan, rec Recorder) (SavedRun, error) {
	var res SavedRun
	if plan.Out == "" {
		return res, errors.New("machine: RunSaved needs a file to save to")
	}
	if err := plan.Validate(); err != nil {
		return res, err
	}
	partial := plan.Partial()
	total := s.recipe.MaxEpochs
	failed := func(err error) error {
		res.WriteFails++
		res.LastWriteErr = err
		if plan.StopOnWriteError {
			return err
		}
		if plan.OnWriteError != nil {
			plan.OnWriteError(err)
		}
		return nil
	}
	_, runErr := s.Run(ctx, RecorderFunc(func(e Epoch) error {
		if rec != nil {
			if err := rec.Record(e); err != nil {
				if err := failed(err); err != nil {
					return err
				}
			}
		}
		if plan.Checkpoint > 0 && e.Epoch%plan.Checkpoint == 0 && e.Epoch < total {
			if err := s.m.Save(partial); err != nil {
				return failed(fmt.Errorf("checkpoint after epoch %d: %w", e.Epoch, err))
			}
			res.Checkpointed = true
			if plan.OnCheckpoint != nil {
				plan.OnCheckpoint(e.Epoch, partial)
			}
		}
		return nil
	}))
	if runErr != nil && s.Status() == Cancelled {
		res.Interrupted, res.Path = true, partial
		if partial != plan.Out {
			res.Kept = plan.Out
		}
		serr := s.Rollback()
		if serr == nil {
			if serr = atomicfile.Check(partial); serr == nil {
				serr = s.m.Save(partial)
			}
		}
		if serr != nil {
			return res, fmt.Errorf("interrupted, and the checkpoint could not be saved: %w", serr)
		}
		return res, runErr
	}
	res.Path = plan.Out
	if err := s.m.Save(plan.Out); err != nil {
		if runErr != nil {
			return res, fmt.Errorf("%w; and saving the machine failed: %v", runErr, err)
		}
		return res, err
	}
	if res.Checkpointed && partial != plan.Out {
		os.Remove(partial) // this run's checkpoint beside the earlier machine, now replaced
	}
	if runErr != nil {
		return res, fmt.Errorf("%w (training stopped after epoch %d; the machine was saved to %s)", runErr, len(s.m.History), plan.Out)
	}
	if res.WriteFails > 0 {
		return res, fmt.Errorf("the machine was saved to %s, but %d %w, the last: %w", plan.Out, res.WriteFails, ErrWrites, res.LastWriteErr)
	}
	return res, nil
}
