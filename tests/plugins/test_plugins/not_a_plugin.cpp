// A shared library named like a plugin (fluxion_not_a_plugin.so) that exports no descriptor.
extern "C" __attribute__((visibility("default"))) int fluxion_test_not_a_plugin_answer() {
  return 42;
}
