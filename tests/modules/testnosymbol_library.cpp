// A shared library named like a backend module but without the xferbench_module symbol.
extern "C" int xferbench_test_not_a_module() { return 42; }
