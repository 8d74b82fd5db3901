package machine

// ForgetSeen makes s present every card through the retina and the
// plugboard, as a session on a noisy retina does: the reference against
// which the session's cache of what the cards light and fire is tested.
func ForgetSeen(s *Session) { s.seenTrain, s.seenTest = nil, nil }

// Cached reports whether s keeps what the cards light and fire.
func Cached(s *Session) bool { return s.seenTrain != nil }
