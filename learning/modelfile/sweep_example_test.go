package modelfile_test

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"mark1/dataset"
	"mark1/learning/learners"
	"mark1/learning/modelfile"
	"mark1/learning/selection"
)

// abc is three classes of two features, in libsvm text.
const abc = "1 1:0.1 2:0.9\n1 1:0.2 2:0.8\n2 1:0.9 2:0.1\n2 1:0.8 2:0.3\n3 1:0.5 2:0.5\n3 1:0.6 2:0.4\n" +
	"1 1:0.3 2:0.7\n2 1:0.7 2:0.2\n3 1:0.4 2:0.6\n1 1:0.15 2:0.85\n2 1:0.85 2:0.2\n3 1:0.55 2:0.45\n"

// files writes the named files into a new temporary folder and returns
// it; the caller removes it.
func files(named map[string]string) string {
	dir, err := os.MkdirTemp("", "modelfile-example")
	if err != nil {
		panic(err)
	}
	for name, text := range named {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			panic(err)
		}
	}
	return dir
}

// svmSetup is the kernel SVM with C = 10, unscaled (scale: "none", or a
// dataset.FitScaler method).
func svmSetup(scale string) modelfile.Setup {
	spec, _ := learners.Lookup("svm")
	opts := learners.Defaults()
	opts.C = 10
	return modelfile.Setup{Spec: spec, Options: opts, Scale: scale}
}

// Training data read as fit reads them: unscaled, compact; scaled, whole,
// with the scaler Fit records in the model file.
func ExampleReadData() {
	dir := files(map[string]string{"abc.libsvm": abc})
	defer os.RemoveAll(dir)
	ctx := context.Background()
	path := filepath.Join(dir, "abc.libsvm")
	d, err := modelfile.ReadData(ctx, path, modelfile.DataOptions{Compact: true, Classes: true, Fingerprint: true})
	if err != nil {
		panic(err)
	}
	fmt.Println(d.Train.Rows(), "rows,", len(d.Train.Classes), "classes; compact:", d.Fit.Compact != nil, "; fingerprint of", len(d.Fingerprint), "hex digits")
	d, err = modelfile.ReadData(ctx, path, modelfile.DataOptions{Compact: true, Scale: "pm1", KeepRaw: true})
	if err != nil {
		panic(err)
	}
	fmt.Println("scaled", d.Fit.Scaler.Method, "; compact:", d.Fit.Compact != nil, "; first row", d.Train.Value[:2], "as read", d.Raw.Value[:2])
	_, err = modelfile.ReadData(ctx, path, modelfile.DataOptions{Scale: "log"})
	fmt.Println(strings.ReplaceAll(err.Error(), dir, "DIR"))
	// Output:
	// 12 rows, 3 classes; compact: true ; fingerprint of 64 hex digits
	// scaled pm1 ; compact: false ; first row [-1 1] as read [0.1 0.9]
	// DIR/abc.libsvm: scale log: unknown scaling "log" (want 01, pm1 or std)
}

// A grid search's plan made from a data file, its tasks run as a job
// array's processes run them, each writing its result into a folder, and
// the results merged into the grid's table.
func ExampleRunSweepTask() {
	dir := files(map[string]string{"abc.libsvm": abc})
	defer os.RemoveAll(dir)
	ctx := context.Background()
	l := svmSetup("none")
	g, err := l.Grid(modelfile.GridText{C: "1,100", Gamma: "1"})
	if err != nil {
		panic(err)
	}
	p, _, err := l.PlanGrid(ctx, filepath.Join(dir, "abc.libsvm"), g, modelfile.GridOptions{Folds: 3, Seed: 1, Warm: true})
	if err != nil {
		panic(err)
	}
	out := filepath.Join(dir, "results")
	for i := range p.Tasks {
		r, err := modelfile.RunSweepTask(ctx, p, i, modelfile.TaskOptions{PlanPath: "abc.plan", Out: out})
		if err != nil {
			panic(err)
		}
		r.WriteText(os.Stdout)
	}
	t, err := selection.MergeDirs(ctx, p, "abc.plan", []string{out})
	if err != nil {
		panic(err)
	}
	fmt.Printf("accuracy %.1f%% with C = 1, %.1f%% with C = 100\n", t.Accuracy(0, 0), t.Accuracy(1, 0))
	// Output:
	// task 0 of 3 (gamma 1, fold 0): right of 3 for C = 1,100: 3,2
	// task 1 of 3 (gamma 1, fold 1): right of 3 for C = 1,100: 3,2
	// task 2 of 3 (gamma 1, fold 2): right of 6 for C = 1,100: 5,6
	// accuracy 91.7% with C = 1, 83.3% with C = 100
}

// The final model trained a binary problem at a time, as a sweep's final
// plan's tasks train it, and joined into the model file fit writes.
func ExampleMergeFinal() {
	dir := files(map[string]string{"abc.libsvm": abc})
	defer os.RemoveAll(dir)
	ctx := context.Background()
	l := svmSetup("01")
	p, err := l.PlanFinal(ctx, filepath.Join(dir, "abc.libsvm"), 10, "scale", dataset.Options{})
	if err != nil {
		panic(err)
	}
	fmt.Println(strings.ReplaceAll(p.Summary(), dir, "DIR"))
	out := filepath.Join(dir, "results")
	for i := range p.Tasks {
		if _, err := modelfile.RunSweepTask(ctx, p, i, modelfile.TaskOptions{PlanPath: "abc.plan", Out: out}); err != nil {
			panic(err)
		}
	}
	m, err := modelfile.MergeFinal(ctx, p, []string{out}, modelfile.MergeOptions{PlanPath: "abc.plan", Model: filepath.Join(dir, "model.json")})
	if err != nil {
		panic(err)
	}
	var text strings.Builder
	m.WriteText(&text)
	fmt.Print(strings.ReplaceAll(text.String(), dir, "DIR"))
	d, err := modelfile.ReadData(ctx, filepath.Join(dir, "abc.libsvm"), modelfile.DataOptions{Compact: true, Scale: "01"})
	if err != nil {
		panic(err)
	}
	fitted, err := modelfile.Fit(ctx, l.Spec, l.Options, d.Train, d.Blocks, d.Fit) // γ = scale, the default
	if err != nil {
		panic(err)
	}
	var a, b bytes.Buffer
	fitted.File.Write(&a)
	m.File.Write(&b)
	fmt.Println("fit's model file:", bytes.Equal(a.Bytes(), b.Bytes()))
	// Output:
	// the final model of svm (C 10, gamma scale) on all 12 rows of DIR/abc.libsvm (sha256 f9ef2c3dfc35): 3 tasks, a binary problem each
	// DIR/model.json: the final model of svm (C 10, gamma scale) on DIR/abc.libsvm (12 rows, 3 classes): 3 machines, 7 support vectors
	// fit's model file: true
}

// fit --cv 3: the learner cross-validated on a data file.
func ExampleSetup_CrossValidateFile() {
	dir := files(map[string]string{"abc.libsvm": abc})
	defer os.RemoveAll(dir)
	r, err := svmSetup("none").CrossValidateFile(context.Background(), filepath.Join(dir, "abc.libsvm"), modelfile.CVOptions{Folds: 3, Seed: 1})
	if err != nil {
		panic(err)
	}
	var text strings.Builder
	r.WriteText(&text)
	fmt.Print(strings.ReplaceAll(text.String(), dir, "DIR"))
	// Output:
	// 3-fold cross-validation of svm (hard=false, kernel=rbf, scale=none, tol=0) on DIR/abc.libsvm: 12 rows, 2 features, 3 classes
	// Cross Validation Accuracy = 83.3333%
}

// A fit measured on its training rows and a test file, then the model
// file written and the test file predicted with it as mark1 apply does.
func ExamplePredict() {
	dir := files(map[string]string{"abc.libsvm": abc, "test.libsvm": "1 1:0.2 2:0.9\n2 1:0.9 2:0.2\n3 1:0.5 2:0.6\n"})
	defer os.RemoveAll(dir)
	ctx := context.Background()
	l := svmSetup("none")
	train, test := filepath.Join(dir, "abc.libsvm"), filepath.Join(dir, "test.libsvm")
	d, err := modelfile.ReadData(ctx, train, modelfile.DataOptions{Test: test, Compact: true})
	if err != nil {
		panic(err)
	}
	fitted, err := modelfile.Fit(ctx, l.Spec, l.Options, d.Train, d.Blocks, modelfile.FitOptions{Compact: d.Fit.Compact, KeepRows: true})
	if err != nil {
		panic(err)
	}
	var preds bytes.Buffer
	r, err := fitted.Measure(ctx, l.Spec, l.Options, d.Train, modelfile.MeasureOptions{Training: true, Test: test, TestOptions: d.TestOptions, Predictions: &preds})
	if err != nil {
		panic(err)
	}
	fmt.Printf("fit: training accuracy %.1f%%, test %.1f%%, predictions %q\n", 100**r.Training.Accuracy, 100**r.Test.Accuracy, preds.String())
	model := filepath.Join(dir, "model.json")
	if err := (modelfile.Outputs{Model: model}).Write(ctx, fitted.File); err != nil {
		panic(err)
	}
	pr, err := modelfile.Predict(ctx, model, test, modelfile.PredictOptions{})
	if err != nil {
		panic(err)
	}
	fmt.Printf("apply: %s model, test accuracy %.1f%%\n", pr.Format, 100**pr.Report.Metrics.Accuracy)
	// Output:
	// fit: training accuracy 100.0%, test 100.0%, predictions "1\n2\n3\n"
	// apply: mark1 model, test accuracy 100.0%
}

// A grid search's plan made from a data file: the grid of C and γ, the
// folds, the data's fingerprint; the plan's tasks are its folds of each γ.
func ExampleSetup_PlanGrid() {
	dir := files(map[string]string{"abc.libsvm": abc})
	defer os.RemoveAll(dir)
	l := svmSetup("std")
	g, err := l.Grid(modelfile.GridText{Log2C: "-1,5,2", Gamma: "0.5,2"})
	if err != nil {
		panic(err)
	}
	p, set, err := l.PlanGrid(context.Background(), filepath.Join(dir, "abc.libsvm"), g, modelfile.GridOptions{Folds: 4, Seed: 7, Warm: true})
	if err != nil {
		panic(err)
	}
	fmt.Println(set.Rows(), "rows read;", strings.ReplaceAll(p.Summary(), dir, "DIR"))
	fmt.Println("C", p.C, "γ", p.Gamma, "warm starts:", p.WarmStart)
	_, _, err = l.PlanGrid(context.Background(), filepath.Join(dir, "abc.libsvm"), g, modelfile.GridOptions{Folds: 5, Seed: 7})
	fmt.Println(err)
	// Output:
	// 12 rows read; 8 tasks (2 γ × 4 folds, each fitting 4 values of C) of 4-fold cross-validation of svm (hard=false, kernel=rbf, scale=std, tol=0) on DIR/abc.libsvm (sha256 f9ef2c3dfc35)
	// C [0.5 2 8 32] γ [0.5 2] warm starts: true
	// folds 5: class 0 has 4 rows; stratified cross-validation needs at least one row of every class in every fold
}
