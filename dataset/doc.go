// Package dataset reads numeric data as people already have it — libsvm
// (svmlight) text, CSV with a header, plain whitespace-separated columns,
// and MNIST's IDX files — into one sparse, labelled Set for the software learners, and scales it the
// way LIBSVM's svm-scale does.
//
// # Formats
//
//   - LibSVM: one row a line, "label index:value index:value ...", indices
//     strictly increasing, absent features zero. The label is a number
//     (LIBSVM reads it with strtod). A '#' starts a comment. A line with a
//     repeated or decreasing index is an error, as in LIBSVM's svm-train,
//     which stops with "Wrong input format at line N". Indices are 1-based
//     as LIBSVM writes them, or 0-based as scikit-learn's
//     dump_svmlight_file writes them by default; Options.Indices chooses,
//     and by default (AutoIndices) a file is 0-based when it has an index 0
//     — scikit-learn's load_svmlight_file(zero_based="auto") rule, which
//     cannot tell a 0-based file that never uses its first feature from a
//     1-based one. An svmlight query id ("label qid:N index:value ...") is
//     read and ignored (Set.QueryIDs counts them).
//   - CSV: a header line naming the columns, then one row a line, every row
//     with as many fields as the header. One column is the label (see
//     Options.LabelColumn); every other column is a feature and must be a
//     number. Labels may be any text ("setosa", "yes").
//   - Text: whitespace-separated columns "x1 x2 ... label", the label last,
//     every line with the same number of columns; '#' starts a comment.
//   - IDX: MNIST's binary format, read from files (ReadFile and its
//     kin, not Read): an images file of unsigned bytes, count × rows ×
//     columns, and a labels file of count bytes, found beside it by the
//     MNIST naming (LabelsBeside) or given with it as "IMAGES,LABELS"
//     (SplitPair). Image i is row i; its pixels, in row-major order, are
//     the rows×columns features, pixel b the value b/255; its label is the
//     labels file's byte i, as a number. ReadIDX and WriteIDX read and
//     write the format itself, for the image loaders too; errors give the
//     image's 1-based number where a text format gives a line.
//
// With Options.NoLabels every CSV or text column is a feature and a libsvm
// line has no label: the Set is Unlabelled. ReadHead reads a file's format
// and first line, so that a caller can decide how to read it.
//
// ReadFile recognises IDX by its magic number (or a pair of files), then
// picks the format from the file name (".csv" is CSV; ".libsvm",
// ".svm", ".svmlight", ".scale", ".t" are LibSVM) and otherwise from the
// first data line (an "index:value" field means LibSVM, a comma CSV, else
// Text); Options.Format overrides the guess. Gzip-compressed files are
// recognised by their magic bytes whatever their name.
//
// # Labels and classes
//
// Labels are kept as strings. A label that is a finite number is written in
// its shortest form ("1.0" and "1" are the same class "1"), as LIBSVM, which
// reads labels as doubles. Classes are numbered in the order in which their
// labels first appear in the file — LIBSVM's and LIBLINEAR's order — with
// one exception they also make: when there are exactly two classes, "-1" and
// "1", and "-1" comes first, "1" becomes class 0, so that the positive class
// of a binary machine is +1.
//
// # Memory
//
// A Set stores the non-zero values only, in compressed sparse rows (CSR):
// 4 bytes of index and 8 bytes of value per non-zero, plus 8 bytes per row
// for the row starts and the class. Readers count what they keep and refuse
// a file, with an error wrapping ErrTooLarge that gives the numbers, before
// holding more than Options.MaxBytes (16 bytes a row, 12 a value). No
// fixed count stands beside that budget: unless given, every other limit
// is derived from it — the rows and values (what MaxBytes holds; 512 MiB
// holds 44,739,242 values), the features (MaxDim: MaxBytes/8, a float64
// weight a feature, at least 65,536; 67,108,864 at 512 MiB), a line of
// libsvm or text data (MaxBytes/8, 64 MiB at 512 MiB) and one of CSV
// (MaxBytes/32, as encoding/csv holds a whole record, with 16 bytes a
// field; 16 MiB), each line at least 64 KiB. The one bound no budget
// raises is the storage's: a feature index is an int32 (at most
// 2,147,483,647). BoundOf tells a caller which it was (BoundBudget,
// BoundFormat, or BoundGiven for a count it gave), so that it can name
// what raises it. Dense copies (Set.Dense)
// are bounded separately by a budget the caller passes. ReadFile reads a
// plain file twice — first counting its colons and lines — so that the
// arrays are allocated once at their final size: reading 10 million
// non-zeros peaks at about 124 MB resident. ReadFileBlocks reads any file
// as ReadFile does but keeps its rows in blocks of a given number of rows,
// so that a reader turning them into another form can drop each block
// once turned. ReadFileCompact turns them itself, a block at a time, when
// they are dense (as the learners count it): into bytes when every value
// is b/255 exactly, else float32, 1 or 4 bytes a feature (Compact), which
// the learners use in place (mark1 fit) — a file of 720,000 rows of 400
// grey levels, 168 million non-zeros, takes 288 MB as bytes or 1.15 GB as
// float32 instead of 2 GB parsed. ReadBlocks reads a file a block
// of rows at a time, for a reader that needs each row once (mark1 apply):
// the budgets then bound a block, not the file. ReadPair reads a training
// file and checks its test file (Scan) before any work, their libsvm
// indices decided together, as scikit-learn's load_svmlight_files does.
//
// # Splits and scaling
//
// Set.Split holds out a seeded, stratified part of a set (Holdout, which
// the image loaders use too); Scaler fits svm-scale's [0,1] or [−1,1] maps,
// or zero mean and unit variance, on training data and applies them to any
// set.
//
// # Errors
//
// Malformed input gives a *ParseError naming the file, the line and (where
// there is one) the field, with the problem in words; it wraps ErrFormat.
// Misuse (a row index out of range) panics.
package dataset
