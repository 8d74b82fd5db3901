// Package coupling is the fourth layer of Rosenblatt's four-layer
// series-coupled perceptron (Block, Knight and Rosenblatt, "Analysis of a
// four-layer series-coupled perceptron. II", Rev. Mod. Phys. 34:135, 1962):
// S → A_I → A_II → R. It holds the second association layer A_II and the
// learnable couplings υ_μν from A_I unit μ to A_II unit ν, and their rule.
//
// A_II is one-to-one with A_I: an active A_I unit μ sends θ to its partner,
// A_II unit μ, and υ_μν·e_μ to every A_II unit ν. A_II unit ν's input when
// stimulus k is shown is
//
//	α_ν^k = θ·e_νk + Σ_μ e_μk·υ_μν
//
// (e_μk = 1 if A_I unit μ fires for stimulus k, else 0), and it fires when
// α_ν^k ≥ θ. The couplings start at 0, so an untrained A_II fires exactly
// where A_I does. When stimulus j is followed by stimulus k they change by
//
//	υ_μν(t+Δt) − υ_μν(t) = η·Δt·e_μj·Φ[α_ν^k(t)] − δ·Δt·υ_μν(t)
//
// (the paper's equation (5)), with learning rate η, decay rate δ and Φ the
// threshold function of the A_II input (Phi: 1 if the unit fires, else
// 0). docs/four-layer.md gives the equations and their source. The package imports
// nothing of mark1's: the machine package says when it learns and what
// the stimuli are.
package coupling
