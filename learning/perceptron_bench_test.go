package learning_test

import (
	"context"
	"fmt"
	"testing"

	"mark1/learning"
	"mark1/learning/kernel"
)

// ptBinaryish is n rows of dim features in {0, 1} (a retina-like input, 20%
// on), labelled by a fixed random separator, in k classes.
func ptBinaryish(n, dim, k int) *learning.Data {
	d := ptBlobs(7, n, dim, k, 1)
	for _, x := range d.X {
		for j := range x {
			if x[j] > 0.85 {
				x[j] = 1
			} else {
				x[j] = 0
			}
		}
	}
	return d
}

func BenchmarkPerceptronEpoch(b *testing.B) {
	for _, size := range []struct{ n, dim, k int }{{1000, 400, 2}, {10000, 400, 2}, {10000, 400, 10}} {
		d := ptBinaryish(size.n, size.dim, size.k)
		for _, l := range []learning.Learner{
			learning.Perceptron{MaxEpochs: 1, Seed: 1},
			learning.AveragedPerceptron{MaxEpochs: 1, Seed: 1},
			learning.Pocket{MaxEpochs: 1, Seed: 1, NoRatchet: true},
			learning.BatchGD{MaxEpochs: 1},
			learning.BatchGD{MaxEpochs: 1, LineSearch: true},
		} {
			b.Run(fmt.Sprintf("%s/n=%d,d=%d,k=%d", l.Name(), size.n, size.dim, size.k), func(b *testing.B) {
				for b.Loop() {
					if _, err := l.Fit(context.Background(), d, nil); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}

func BenchmarkKernelPerceptron(b *testing.B) {
	for _, n := range []int{200, 1000} {
		d := ptBinaryish(n, 50, 2)
		for _, k := range []kernel.Kernel{kernel.Linear{}, kernel.Gaussian{Sigma: 3}} {
			b.Run(fmt.Sprintf("%s/n=%d", k, n), func(b *testing.B) {
				for b.Loop() {
					learning.KernelPerceptron{Kernel: k, MaxEpochs: 5, Seed: 1}.Fit(context.Background(), d, nil)
				}
			})
		}
	}
}
