package gc

// SetVAES turns the VAES garbling routine on (where the processor has
// it) or off, and returns whether it is on: tests compare its tables
// with those of the AES-NI routine.
func SetVAES(on bool) bool {
	useVAES = on && haveVAES
	return useVAES
}
