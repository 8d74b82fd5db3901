package learners

import "mark1/learning"

// A Meter says what a learner's progress entries (learning.Epoch, given
// to a learning.Recorder) count, for a progress line: epochs of the
// online learners and the hardware (against their limit), steps of batch
// GD, one-vs-one pairs solved by the kernel SVM and one-vs-rest machines
// by the linear SVM on more than two classes, SMO iterations or solver
// passes of their single machine on two.
type Meter struct {
	Unit  string
	Total int  // 0: unknown
	Limit bool // Total is an upper limit
	// Count returns the count after entry e, done the count before it.
	Count func(done int, e learning.Epoch) int
}

// NewMeter returns the meter of the learner named learner on classes
// classes with an epoch limit of epochs.
func NewMeter(learner string, classes, epochs int) Meter {
	epoch := func(_ int, e learning.Epoch) int { return e.Epoch }
	machine := func(_ int, e learning.Epoch) int { return e.Machine } // the machines before this one are done
	switch learner {
	case "svm":
		if classes > 2 {
			return Meter{Unit: "pair", Total: classes * (classes - 1) / 2, Count: machine}
		}
		return Meter{Unit: "SMO iteration", Count: func(done int, e learning.Epoch) int { return done + e.Mistakes }}
	case "linear-svm":
		if classes > 2 {
			return Meter{Unit: "machine", Total: classes, Count: machine}
		}
		return Meter{Unit: "pass", Count: epoch}
	case "batch-gd":
		return Meter{Unit: "step", Total: epochs, Limit: true, Count: epoch}
	}
	return Meter{Unit: "epoch", Total: epochs, Limit: true, Count: epoch}
}
