/* Globals with initializers: a string literal (a read-only .str data
   item and a relocation), an array of strings, a static table with the
   rest zero, a pointer into an array. */
const char *greeting = "hello";
static const char *words[] = {"one", "two", "hello"};
static int table[8] = {1, 2, [5] = 6};
int *sixth = &table[5];

const char *pick(int i) { return i < 0 ? greeting : words[i]; }
