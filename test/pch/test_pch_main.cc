// The target that builds the tests' shared precompiled header (cmake/gnomon_module.cmake); it
// runs nothing.
int main() { return 0; }
