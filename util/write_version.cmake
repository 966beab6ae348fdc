# Writes OUT from util/version.cpp.in with VERSION and the commit of the checkout at SOURCE_DIR
# (cmake -P, at every build): none where SOURCE_DIR is not a checkout's top (a tarball, even one
# unpacked inside another checkout), "-dirty" after it where tracked files differ from it. The file
# is rewritten only when that changed, so that an unchanged commit relinks nothing.
function(git_output out)
  execute_process(COMMAND git -C "${SOURCE_DIR}" ${ARGN} OUTPUT_VARIABLE text OUTPUT_STRIP_TRAILING_WHITESPACE
    ERROR_QUIET RESULT_VARIABLE failed)
  if(failed)
    set(text "")
  endif()
  set(${out} "${text}" PARENT_SCOPE)
endfunction()

set(ATAXX_GIT_HASH "")
git_output(top rev-parse --show-toplevel)
file(REAL_PATH "${SOURCE_DIR}" source_dir)
if(top)
  file(REAL_PATH "${top}" top)
endif()
if(top STREQUAL source_dir)
  git_output(ATAXX_GIT_HASH rev-parse HEAD)
  git_output(changes status --porcelain --untracked-files=no)
  if(ATAXX_GIT_HASH AND changes)
    string(APPEND ATAXX_GIT_HASH "-dirty")
  endif()
endif()
set(ATAXX_VERSION "${VERSION}")
configure_file("${SOURCE_DIR}/util/version.cpp.in" "${OUT}.new" @ONLY)
file(COPY_FILE "${OUT}.new" "${OUT}" ONLY_IF_DIFFERENT)
file(REMOVE "${OUT}.new")
