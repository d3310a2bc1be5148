package lang

// The decoders' pointer forms, for the decoding tests only: outside this
// package the one reader of positionals is Bind, and the compiler holds
// that (there is no exported decoder to call).

func DecodeInteractionTarget(positionals []string) (*InteractionTarget, error) {
	return DecodeTarget(positionals, TargetOptions{})
}

func DecodeTarget(positionals []string, opts TargetOptions) (*InteractionTarget, error) {
	it, err := decodeTarget(positionals, opts)
	if err != nil {
		return nil, err
	}
	return &it, nil
}

func DecodeWait(positionals []string) (*WaitSpec, error) {
	w, err := decodeWait(positionals)
	if err != nil {
		return nil, err
	}
	return &w, nil
}
