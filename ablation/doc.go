// Package ablation measures how a trained Mark I degrades as its parts fail.
//
// Rosenblatt (1958) argued that a perceptron's memory is spread over many
// association units, so that losing some of them costs little: the
// machine's performance falls off gradually rather than all at once. Run
// takes a trained machine, fails increasing fractions of its A-units or of
// its pots, and measures P_g (accuracy on held-out cards) right after the
// failure and again after a few epochs of retraining on the training cards,
// as an operator would after a repair that could not replace the parts.
//
// A failed A-unit never fires. A failed pot's motor has burnt out: its
// wiper rests at a random position between its end stops and no longer
// moves. The parts failed at one fraction are a subset of those failed at
// any larger one, drawn from an explicit seed, so a curve is monotone in
// what it removes and the same seed gives the same curve. Seeds repeats
// the experiment over fresh machines like a trained one, one per master
// seed, and Pool averages their curves.
package ablation
