package learning

// Visit is one presentation of a training row to the Perceptron or the
// KernelPerceptron, reported to their Watch function: what a lecture writes
// down for each step of a trace. The slices are the learner's own memory,
// valid only during the call; copy what you keep.
type Visit struct {
	Epoch   int     // 1-based
	Row     int     // index into Data.X
	Machine int     // the one-vs-rest machine (0 for two classes)
	Y       float64 // the row's sign for this machine, ±1
	Score   float64 // the machine's f(x) before the update: w·x + b, or Σ_j α_j y_j (k(x_j, x) + 1)
	Mistake bool    // y·f(x) ≤ 0, so the learner updated
	// W and B are the machine's weights and bias after the visit
	// (Perceptron only; nil and 0 for the KernelPerceptron, whose update is
	// α_Row += 1).
	W []float64
	B float64
}

// GDStep is one full-batch step of BatchGD, reported to its Watch function:
// the quantities of the notes' loop (lecture notes 001). The slices are the
// learner's own memory, valid only during the call; copy what you keep.
type GDStep struct {
	Step    int // 1-based
	Machine int // the one-vs-rest machine (0 for two classes)
	// V holds the rows with y·f(x) ≤ 0 before the step, in data order.
	V []int
	// Risk is R(w, b) = Σ_{i∈V} −y_i f(x_i) before the step.
	Risk float64
	// Dir and DirB are the descent direction Σ y_i (x_i, 1) over the rows
	// that set it (V; with LineSearch only those strictly on the wrong side,
	// unless w = 0): −∇R where R is differentiable.
	Dir  []float64
	DirB float64
	// T is the step taken along (Dir, DirB): ε, or the line search's choice.
	T float64
	// Scale is the factor the line search rescales the result by (1 for a
	// fixed step).
	Scale float64
	// W and B are the weights and bias after the step.
	W []float64
	B float64
}
