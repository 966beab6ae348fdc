# Writes OUT from util/version.cpp.in with VERSION and the checkout's commit (cmake -P, at every
# build); the file is rewritten only when they changed, so that an unchanged commit relinks nothing.
execute_process(COMMAND git -C "${SOURCE_DIR}" describe --always --dirty --abbrev=7
  OUTPUT_VARIABLE ATAXX_GIT_HASH OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET RESULT_VARIABLE git_failed)
if(git_failed)
  set(ATAXX_GIT_HASH "")
endif()
set(ATAXX_VERSION "${VERSION}")
configure_file("${SOURCE_DIR}/util/version.cpp.in" "${OUT}.new" @ONLY)
file(COPY_FILE "${OUT}.new" "${OUT}" ONLY_IF_DIFFERENT)
file(REMOVE "${OUT}.new")
