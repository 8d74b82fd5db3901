package svm

import (
	"mark1/learning"
	"mark1/learning/kernel"
)

// NewKernelModel builds a trained kernel SVM from its parts, as a model file
// reader does: the kernel, the number of classes, the multi-class strategy,
// the support vectors sv in any form (sparse rows stay sparse) and the
// machines, whose SV fields index the rows of sv. Prediction then takes the
// same fast path as a model from Fit. It panics if a machine's SV index is
// out of range or its Coef length differs from its SV length.
func NewKernelModel(k kernel.Kernel, classes int, strategy Multiclass, sv learning.Rows, machines []Machine) *KernelModel {
	for _, mc := range machines {
		if len(mc.SV) != len(mc.Coef) {
			panic("svm: NewKernelModel: machine with different numbers of SV indices and coefficients")
		}
		for _, s := range mc.SV {
			if s < 0 || s >= sv.Len() {
				panic("svm: NewKernelModel: support vector index out of range")
			}
		}
	}
	km := &KernelModel{Kernel: k, Classes: classes, Strategy: strategy, SVRows: sv, Machines: machines}
	if d, ok := sv.(*learning.Dense); ok {
		km.SV = d.X
	}
	km.sv = newGram(sv, nil, k)
	return km
}
