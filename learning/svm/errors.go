package svm

import "errors"

// Errors for bad input. Solve, SolveLinear and the learners' Fit wrap them
// with %w and say where the problem is.
var (
	// ErrShape means the rows of X differ in length or there are none.
	ErrShape = errors.New("svm: bad shape")
	// ErrValue means a feature is NaN or infinite.
	ErrValue = errors.New("svm: feature not finite")
	// ErrLabel means a label is not ±1 (Solve) or not a class index (Fit).
	ErrLabel = errors.New("svm: bad label")
	// ErrOneClass means all examples have the same label.
	ErrOneClass = errors.New("svm: only one class")
	// ErrSetting means a setting is out of range, such as a negative C or
	// an invalid kernel.
	ErrSetting = errors.New("svm: bad setting")
	// ErrKernel means the kernel's values on the data are not finite (a
	// polynomial of high degree on large values overflows).
	ErrKernel = errors.New("svm: kernel values not finite")
)
