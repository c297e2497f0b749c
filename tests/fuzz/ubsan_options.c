/* The fuzz harnesses' UndefinedBehaviorSanitizer settings: the first report aborts, so libFuzzer keeps the input.
 * Read by the UBSan runtime at start-up (compiler-rt's documented __ubsan_default_options hook). */
const char *__ubsan_default_options(void);

const char *__ubsan_default_options(void)
{
	return "halt_on_error=1:abort_on_error=1:print_stacktrace=1";
}
