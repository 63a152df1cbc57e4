/* Thread-local variables: tls data items (initialized: .tdata; zero:
   .tbss), a tls extern, a function-scope static _Thread_local, a
   tls_model; every use is an ast:tlsaddr. */
__thread int counter = 3;
static _Thread_local long zero;
extern __thread char name[8];
__thread int ie __attribute__((tls_model("initial-exec")));

int *next(void) {
  static _Thread_local int calls;
  calls++;
  zero += counter + name[1] + ie;
  return &calls;
}
