# Writes a man page (roff, gzip -9n) from a program's --help output.
#   cmake -DPROGRAM=path -DNAME=cnready -DSECTION=1 -DSUMMARY="..." -DVERSION=0.1.0
#         [-DSUBCOMMANDS="assess;rules;explain;manifest"] -DOUTPUT=cnready.1.gz -P manpage.cmake
# Each subcommand's `PROGRAM SUB --help` becomes a section of its own.
cmake_minimum_required(VERSION 3.25)

function(help_of out)
  execute_process(COMMAND ${CMAKE_COMMAND} -E env QT_QPA_PLATFORM=offscreen "${PROGRAM}" ${ARGN} --help
                  OUTPUT_VARIABLE text RESULT_VARIABLE rc ERROR_QUIET)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "${PROGRAM} ${ARGN} --help exited ${rc}")
  endif()
  # roff: a backslash is written \e, a minus \-, and a line that starts with . or ' is protected.
  string(REPLACE "\\" "\\e" text "${text}")
  string(REPLACE "-" "\\-" text "${text}") # a minus, not a hyphen, as in options
  string(REGEX REPLACE "(^|\n)([.'])" "\\1\\\\&\\2" text "${text}")
  set(${out} "${text}" PARENT_SCOPE)
endfunction()

string(TOUPPER "${NAME}" upper)
set(page ".TH ${upper} ${SECTION} \"\" \"${NAME} ${VERSION}\" \"User Commands\"\n")
string(APPEND page ".SH NAME\n${NAME} \\- ${SUMMARY}\n")
help_of(main)
string(APPEND page ".SH SYNOPSIS AND OPTIONS\n.nf\n${main}\n.fi\n")
foreach(sub IN LISTS SUBCOMMANDS)
  help_of(text ${sub})
  string(TOUPPER "${sub}" usub)
  string(APPEND page ".SH ${usub}\n.nf\n${text}\n.fi\n")
endforeach()
string(APPEND page ".SH EXIT STATUS\n0 success; 1 the verdict is the \\-\\-fail\\-on one or worse; 2 usage or configuration error; 3 input error.\n")
string(APPEND page ".SH SEE ALSO\n")
if(NAME STREQUAL "cnready")
  string(APPEND page ".BR cnready-studio (1)\n")
else()
  string(APPEND page ".BR cnready (1)\n")
endif()
get_filename_component(dir "${OUTPUT}" DIRECTORY)
file(MAKE_DIRECTORY "${dir}")
string(REGEX REPLACE "\\.gz$" "" plain "${OUTPUT}")
file(WRITE "${plain}" "${page}")
execute_process(COMMAND gzip -9nf "${plain}" RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "gzip failed for ${plain}")
endif()
