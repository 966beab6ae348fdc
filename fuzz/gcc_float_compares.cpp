// GCC's -fsanitize-coverage=trace-cmp also traces float and double comparisons, through two hooks
// that libFuzzer's runtime does not define: they are ignored here (integer comparisons guide).
extern "C" {
void __sanitizer_cov_trace_cmpf(float, float) {}
void __sanitizer_cov_trace_cmpd(double, double) {}
}
